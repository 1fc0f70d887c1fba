import { Paper, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadState } from '../../components/form/LoadState';

/**
 * A titled panel holding one table of the engagement views (links, unsubscribes, hits): a loader or error while
 * its data comes (`state`), the empty text when there are no rows, else the table with `head` and the rows.
 */
export function TableSection(props: {
  title: ReactNode;
  state?: { error: unknown; loading: boolean };
  empty: boolean;
  emptyText: string;
  minWidth: number;
  testId: string;
  head: ReactNode;
  rows: () => ReactNode;
  footer?: ReactNode;
}) {
  const body = () =>
    props.empty ? (
      <Text c="dimmed">{props.emptyText}</Text>
    ) : (
      <Table.ScrollContainer minWidth={props.minWidth}>
        <Table data-testid={props.testId}>
          <Table.Thead>
            <Table.Tr>{props.head}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>{props.rows()}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        {props.title}
      </Title>
      {props.state ? (
        <LoadState error={props.state.error} loading={props.state.loading}>
          {body}
        </LoadState>
      ) : (
        body()
      )}
      {props.footer}
    </Paper>
  );
}

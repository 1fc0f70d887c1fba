import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatNumber } from '../../lib/numbers';

/** One row of figures: people (hits judged human) beside every hit. */
export interface EngagementRow {
  labelKey: string;
  people: number;
  all: number;
  testId: string;
}

/** Opens and clicks, people beside all hits, with the line that says what "people" means (and any more of the legend). */
export function EngagementTable({ rows, testId, legend }: { rows: EngagementRow[]; testId: string; legend?: ReactNode }) {
  const { t } = useTranslation();
  const format = useFormatNumber();
  return (
    <div data-testid={testId}>
      <Table withTableBorder maw={560}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th ta="right">{t('engagement.people')}</Table.Th>
            <Table.Th ta="right">{t('engagement.all')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.labelKey}>
              <Table.Th fw={500}>{t(row.labelKey)}</Table.Th>
              <Table.Td ta="right" fw={700} data-testid={`${row.testId}-people`}>
                {format(row.people)}
              </Table.Td>
              <Table.Td ta="right" data-testid={`${row.testId}-all`}>
                {format(row.all)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4} maw={560}>
        {t('engagement.peopleHint')}
      </Text>
      {legend}
    </div>
  );
}

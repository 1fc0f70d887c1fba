import { Alert, Center, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The states of a short, unpaged list (API keys, sessions): the error, a loader, the empty text, or else the
 * table it wraps. Test ids `list-error` and `list-empty` as on the paged list screens.
 */
export function ShortListState(props: { error: string | null; loading: boolean; empty: boolean; emptyText: string; children: () => ReactNode }) {
  if (props.error) {
    return (
      <Alert color="red" data-testid="list-error">
        {props.error}
      </Alert>
    );
  }
  if (props.loading) {
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  }
  if (props.empty) {
    return (
      <Text c="dimmed" ta="center" p="lg" data-testid="list-empty">
        {props.emptyText}
      </Text>
    );
  }
  return <>{props.children()}</>;
}

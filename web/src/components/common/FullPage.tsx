import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A centred full-page message (organisation not found, startup failure). */
export function FullPageMessage({
  title,
  text,
  action,
  testId,
}: {
  title: string;
  text?: ReactNode;
  action?: { label: string; onClick: () => void };
  testId?: string;
}) {
  return (
    <Center mih="100vh" p="xl" data-testid={testId}>
      <Stack align="center" maw={520} gap="sm">
        <Title order={1} ta="center">
          {title}
        </Title>
        {text && (
          <Text c="dimmed" ta="center">
            {text}
          </Text>
        )}
        {action && <Button onClick={action.onClick}>{action.label}</Button>}
      </Stack>
    </Center>
  );
}

/** A centred spinner while the console starts. */
export function FullPageLoader() {
  return (
    <Center mih="100vh">
      <Loader data-testid="app-loading" />
    </Center>
  );
}

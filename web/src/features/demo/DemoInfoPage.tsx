import { Alert, Anchor, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import type { DemoInfo } from '@shared/contracts/demo';
import type { ItemBody } from '@shared/errors';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Link } from 'wouter';
import { useServices } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';

/** /demo-info: what the shared demo is, the login and password to try it, and when its data resets next. */
export function DemoInfoPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const demo = useAtomValue(guestInitAtom)?.settings.demo ?? false;
  const { data, error } = useSWR(demo ? 'demo-info' : null, () => client.get<ItemBody<DemoInfo>>('/demo', undefined, { guest: true }));
  const info = data?.data;
  const guest = useAtomValue(currentUserAtom) === null;

  return (
    <Card withBorder shadow="sm" padding="lg" maw={560} mx="auto" mt="xl" data-testid="demo-info">
      <Title order={2} mb="xs">
        {t('identity.demo.title')}
      </Title>
      {!demo ? (
        <Text data-testid="demo-info-unavailable">{t('identity.demo.notDemo')}</Text>
      ) : error ? (
        <Alert color="red" data-testid="demo-info-error">
          {translateApiError(t, error)}
        </Alert>
      ) : !info ? (
        <Loader />
      ) : (
        <Stack>
          <Text>{t('identity.demo.about')}</Text>
          <Table withTableBorder variant="vertical">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>{t('identity.demo.login')}</Table.Th>
                <Table.Td>
                  <Code data-testid="demo-info-login">{info.login}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('identity.demo.password')}</Table.Th>
                <Table.Td>
                  <Code data-testid="demo-info-password">{info.password}</Code>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text data-testid="demo-info-reset">{t('identity.demo.resets', { hours: info.reset_length })}</Text>
          {info.next_reset_at && (
            <Group gap={6} data-testid="demo-info-next-reset">
              <Text>{t('identity.demo.nextReset')}</Text>
              <Text fw={600}>
                <DateTime value={info.next_reset_at} />
              </Text>
            </Group>
          )}
          <Text size="sm" c="dimmed">
            {t('identity.demo.locked')}
          </Text>
          {guest && (
            <Link href="/" asChild>
              <Anchor href="/" data-testid="demo-info-signin">
                {t('identity.backToSignIn')}
              </Anchor>
            </Link>
          )}
        </Stack>
      )}
    </Card>
  );
}

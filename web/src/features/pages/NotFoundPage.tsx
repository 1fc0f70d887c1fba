import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** The 404 page ('Page not found'): /page-not-found and any unmatched path. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" mt="xl" data-testid="not-found">
      <Title order={1}>404</Title>
      <Title order={2}>{t('notFound.title')}</Title>
      <Text c="dimmed">{t('notFound.text')}</Text>
      <Link href="/" asChild>
        <Button component="a" href="/">
          {t('common.backHome')}
        </Button>
      </Link>
    </Stack>
  );
}

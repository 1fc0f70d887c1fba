import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../lib/route-table';

/** A static page at /{pageName} (terms, privacy): title and text from the locale files. */
export function StaticPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const base = `pages.${route.name}`;
  const known = i18n.exists(`${base}.title`);
  return (
    <Paper withBorder p="lg" maw={820} mx="auto" data-testid={`page-${route.name}`}>
      <Title order={2} mb="md">
        {known ? t(`${base}.title`) : route.name}
      </Title>
      {known && <Text style={{ whiteSpace: 'pre-line' }}>{t(`${base}.body`)}</Text>}
    </Paper>
  );
}

import { Anchor, Button, Code, CopyButton, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import type { Form } from '@shared/contracts/form';
import { type EmbedLabels, formEmbedHtml } from '@shared/form-embed';
import { LANGUAGE_NAMES } from '@shared/languages';
import type { Subscription } from '@shared/contracts/subscription';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type LanguageCode } from '../../lib/config';

// The hosted page's own strings (src/shared/locales/forms), loaded per language when chosen: the snippet's labels
// are the ones the hosted page shows in that language.
const PAGE_STRINGS = import.meta.glob<{ formPage: EmbedLabels }>('@shared/locales/forms/*.json', { import: 'default' });

function usePageLabels(language: LanguageCode): EmbedLabels | null {
  const [loaded, setLoaded] = useState<{ language: LanguageCode; labels: EmbedLabels } | null>(null);
  useEffect(() => {
    const load = Object.entries(PAGE_STRINGS).find(([file]) => file.endsWith(`/${language}.json`))?.[1];
    let live = true;
    void load?.().then((strings) => live && setLoaded({ language, labels: strings.formPage }));
    return () => {
      live = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.labels : null;
}

/** A saved form's hosted link (open) and its embed snippet in a chosen language, with a Copy button. */
export function EmbedPanel({ form, subscriptions, customFields }: { form: Form; subscriptions: Subscription[]; customFields: Field[] }) {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState<LanguageCode>(() =>
    (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as LanguageCode) : 'en',
  );
  const labels = usePageLabels(language);
  const html = useMemo(() => {
    if (!labels) return '';
    const offered = form.subscription_ids.map((id) => ({ id, name: subscriptions.find((s) => s.id === id)?.name ?? `#${id}` }));
    const customNames = Object.fromEntries(customFields.map((f) => [f.alias, f.name]));
    return formEmbedHtml({ url: form.url, fields: form.fields, subscriptions: offered, customNames, language, labels });
  }, [labels, form, subscriptions, customFields, language]);

  return (
    <Paper withBorder p="md" data-testid="form-embed">
      <Stack gap="sm">
        <Title order={4}>{t('forms.hostedLink')}</Title>
        <Anchor href={form.url} target="_blank" rel="noreferrer" data-testid="form-hosted-link">
          <Group gap={4}>
            {form.url} <IconExternalLink size={14} />
          </Group>
        </Anchor>
        <Title order={4}>{t('forms.embedTitle')}</Title>
        <Text size="sm" c="dimmed">
          {t('forms.embedHint')}
        </Text>
        <Group align="end">
          <NativeSelect
            label={t('forms.embedLanguage')}
            data-testid="form-embed-language"
            value={language}
            data={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
            onChange={(e) => setLanguage(e.currentTarget.value as LanguageCode)}
          />
          <CopyButton value={html} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                onClick={copy}
                disabled={!html}
                data-testid="form-embed-copy"
              >
                {t(copied ? 'forms.copied' : 'forms.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Code block data-testid="form-embed-code">
          {html}
        </Code>
      </Stack>
    </Paper>
  );
}

import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Contact } from '@shared/contracts/contact';
import type { Field } from '@shared/contracts/field';
import { LANGUAGE_NAMES } from '@shared/languages';
import { useTranslation } from 'react-i18next';
import { TagChips } from './contact-config';
import { attributeText, namedAttributes } from './contact-view';

/** One labelled block of the profile. */
function Section({ titleKey, testId, children }: { titleKey: string; testId: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
        {t(titleKey)}
      </Text>
      {children}
    </div>
  );
}

/** The contact read-only: its addresses (a blacklisted one marked), tags, custom field values by field name, note. */
export function ContactProfile({ contact, fields }: { contact: Contact; fields: Field[] }) {
  const { t } = useTranslation();
  const blacklisted = new Set(contact.blacklisted_addresses ?? []);
  const values = namedAttributes(fields, contact.attributes);
  const yesNo = { yes: t('audience.yes'), no: t('audience.no') };
  return (
    <Paper withBorder p="md" data-testid="contact-profile">
      <Title order={4} mb="sm">
        {t('contacts.view.profile')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
        <Section titleKey="contacts.fields.addresses" testId="contact-addresses">
          <Stack gap={4}>
            {contact.addresses.map((address) => (
              <Group key={address.id} gap={6} wrap="wrap" data-testid="contact-address" data-address-type={address.type}>
                <Text size="sm" style={{ wordBreak: 'break-all' }} td={blacklisted.has(address.id) ? 'line-through' : undefined}>
                  {address.value}
                </Text>
                <Badge variant="outline" color="gray" size="xs" tt="none">
                  {t(`audience.addressTypes.${address.type}`)}
                </Badge>
                {blacklisted.has(address.id) && (
                  <Badge color="red" variant="light" size="xs" tt="none" title={t('contacts.blacklistedHint')}>
                    {t('contacts.blacklisted')}
                  </Badge>
                )}
              </Group>
            ))}
          </Stack>
        </Section>
        <Section titleKey="contacts.fields.tags" testId="contact-tags">
          {contact.tags.length ? (
            <TagChips contact={contact} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('contacts.view.noTags')}
            </Text>
          )}
        </Section>
        <Section titleKey="contacts.fields.attributes" testId="contact-fields">
          {values.length ? (
            <Stack gap={2}>
              {values.map(({ field, value }) => (
                <Text key={field.id} size="sm" data-testid="contact-field" data-alias={field.alias}>
                  <Text span c="dimmed" size="sm">
                    {field.name}:
                  </Text>{' '}
                  {attributeText(field, value, yesNo)}
                </Text>
              ))}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('contacts.view.noFields')}
            </Text>
          )}
        </Section>
        {contact.language && (
          <Section titleKey="contacts.fields.language" testId="contact-language">
            <Text size="sm">{LANGUAGE_NAMES[contact.language]}</Text>
          </Section>
        )}
        {contact.note && (
          <Section titleKey="contacts.fields.note" testId="contact-note">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {contact.note}
            </Text>
          </Section>
        )}
      </SimpleGrid>
    </Paper>
  );
}

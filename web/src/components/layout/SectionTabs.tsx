import { ScrollArea, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useRouteTable } from '../../lib/services-context';
import { groupSections, type SectionKey } from './navigation';

/**
 * The sections of the current page's group as tabs (spec 2: contacts with tags, fields, import, blacklist and
 * subscriptions; templates with campaigns and broadcasts; integrations with senders), so each is one click away.
 */
export function SectionTabs({ section }: { section: SectionKey }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const sections = groupSections(useRouteTable(), section);
  if (sections.length < 2) return null;
  return (
    <ScrollArea type="never" mb="md">
      <Tabs value={section} onChange={(key) => navigate(sections.find((s) => s.key === key)!.href)} data-testid="section-tabs">
        <Tabs.List style={{ flexWrap: 'nowrap' }}>
          {sections.map((s) => (
            <Tabs.Tab key={s.key} value={s.key} data-testid={`section-tab-${s.key}`}>
              {t(s.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </ScrollArea>
  );
}

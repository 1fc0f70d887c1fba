import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The tabs of an item's view page (e.g. "base info" and "content"); only the open tab is mounted. */
export function DetailTabs({ tabs }: { tabs: { value: string; labelKey: string; content: () => ReactNode }[] }) {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue={tabs[0].value} keepMounted={false}>
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} data-testid={`tab-${tab.value}`}>
            {t(tab.labelKey)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab.value} value={tab.value} pt="md">
          {tab.content()}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

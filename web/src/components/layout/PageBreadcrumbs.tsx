import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRouteTable } from '../../lib/services-context';
import { breadcrumbTrail, type Crumb, type SectionKey } from './navigation';
import { SectionTabs } from './SectionTabs';

/**
 * Breadcrumbs of an entity page: group > section > current step (e.g. Contacts > Tags > Create); a section's own
 * page (no current step) also gets its group's sections as tabs.
 */
export function PageBreadcrumbs({ section, current }: { section: SectionKey; current?: Omit<Crumb, 'href'> }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const trail = breadcrumbTrail(table, section, current);
  return (
    <>
      <Breadcrumbs data-testid="breadcrumbs" mb="md">
        {trail.map((crumb, index) => {
          const label = crumb.text ?? t(crumb.labelKey);
          return crumb.href ? (
            <Link key={index} href={crumb.href} asChild>
              <Anchor href={crumb.href}>{label}</Anchor>
            </Link>
          ) : (
            <Text key={index} c="dimmed">
              {label}
            </Text>
          );
        })}
      </Breadcrumbs>
      {!current && <SectionTabs section={section} />}
    </>
  );
}

import { ADDRESS_TYPES } from '@shared/address';
import type { BlacklistEntry, BlacklistInput } from '@shared/contracts/blacklist';
import { useMemo } from 'react';
import { EntityForm } from '../../components/form/EntityForm';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useDictionary } from '../../lib/dictionary';
import { useBlacklistCalls } from './api';
import { blacklistFormFields, blacklistInitial, blacklistInput, validateBlacklist } from './blacklist-config';

/** /blacklist/create: type, value in the type's format, optional info (spec 5). */
export function BlacklistFormPage() {
  const calls = useBlacklistCalls();
  const types = useDictionary('address-types', ADDRESS_TYPES);
  const fields = useMemo(() => blacklistFormFields(types), [types]);
  return (
    <>
      <PageBreadcrumbs section="blacklist" current={{ labelKey: 'common.create' }} />
      <EntityForm<BlacklistEntry, BlacklistInput>
        item={null}
        fields={fields}
        calls={calls}
        initial={blacklistInitial}
        validate={validateBlacklist}
        toInput={blacklistInput}
        listRoute="blacklist_list"
        titleKey="blacklist.createTitle"
        itemLabel={(entry) => entry.value}
      />
    </>
  );
}

import { Badge } from '@mantine/core';
import type { DomainStatus, RecordStatus } from '@shared/contracts/domain';
import { useTranslation } from 'react-i18next';

// A broken domain is red wherever it is shown (the list and the detail); a record that could not be checked is never
// shown as ok.
const DOMAIN_COLORS: Record<DomainStatus, string> = { pending: 'yellow', verified: 'green', broken: 'red', lost: 'gray' };
const RECORD_COLORS: Record<RecordStatus, string> = { ok: 'green', missing: 'red', wrong: 'red', unavailable: 'orange', unchecked: 'gray' };

/** The domain's status: pending, verified, broken or lost. */
export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant={status === 'broken' ? 'filled' : 'light'} color={DOMAIN_COLORS[status]} data-column="status" data-status={status}>
      {t(`domains.statuses.${status}`)}
    </Badge>
  );
}

/** A record's last check: ok, missing, wrong, could not check, not yet checked. */
export function RecordStatusBadge({ status }: { status: RecordStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={RECORD_COLORS[status]} data-testid="record-status" data-status={status}>
      {t(`domains.recordStatuses.${status}`)}
    </Badge>
  );
}

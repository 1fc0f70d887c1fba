import type { ActivityLogEntry } from '@shared/contracts/activity-log';
import { ListScreen } from '../../components/list/ListScreen';
import { useActivityLogList } from './api';
import { ACTIVITY_LOG_COLUMNS, ACTIVITY_LOG_FILTERS } from './activity-log-config';

/** /activity-log: who changed what (read-only), server-paged, newest first, filterable by entity. */
export function ActivityLogPage() {
  return (
    <ListScreen<ActivityLogEntry>
      listKey="activity-log"
      titleKey="activityLog.title"
      columns={ACTIVITY_LOG_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      useList={useActivityLogList}
      filters={ACTIVITY_LOG_FILTERS}
    />
  );
}

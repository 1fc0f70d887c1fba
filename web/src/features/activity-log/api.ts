import type { ActivityLogEntry } from '@shared/contracts/activity-log';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';

/** The activity log's API path (read-only: list and read). */
export const ACTIVITY_LOG_PATH = '/activity-log';

/** Entities whose changes the log records (the API path names), offered by the entity filter. */
export const LOGGED_ENTITIES = [
  'contact',
  'tag',
  'field',
  'subscription',
  'blacklist',
  'template',
  'campaign',
  'broadcast',
  'sender',
  'integration',
  'message',
  'organization_api_key',
] as const;

/** The activity log, server-paged with load more, newest first by default. */
export function useActivityLogList(query: ListQuery): EntityListState<ActivityLogEntry> {
  return useEntityList<ActivityLogEntry>(ACTIVITY_LOG_PATH, query);
}

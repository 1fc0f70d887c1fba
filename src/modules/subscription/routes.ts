import { subscriptions } from '../../db/schema';
import { subscriptionInputSchema, type Subscription, type SubscriptionInput } from '../../shared/contracts/subscription';
import { crudRoutes } from '../crud/crud-routes';

/** /subscription: the shared entity contract for subscription categories (unique names, drag-reorderable). */
export const subscriptionRoutes = crudRoutes<typeof subscriptions, SubscriptionInput, Subscription>({
  table: subscriptions,
  input: subscriptionInputSchema,
  sortable: {
    priority: subscriptions.priority,
    id: subscriptions.id,
    name: subscriptions.name,
    created_at: subscriptions.createdAt,
    updated_at: subscriptions.updatedAt,
  },
  defaultSort: { key: 'priority', order: 'asc' },
  search: [subscriptions.name],
  priority: subscriptions.priority,
  audit: 'subscription',
  toValues: (input) => (input.name === undefined ? {} : { name: input.name }),
  present: (_c, rows) =>
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      priority: row.priority,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })),
});

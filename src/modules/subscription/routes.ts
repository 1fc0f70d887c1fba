import { subscriptions } from '../../db/schema';
import { subscriptionInputSchema } from '../../shared/contracts/subscription';
import { namedEntityRoutes } from '../crud/named-entity-routes';

/** /subscription: the shared entity contract for subscription categories (unique names, drag-reorderable). */
export const subscriptionRoutes = namedEntityRoutes(subscriptions, 'subscription', subscriptionInputSchema);

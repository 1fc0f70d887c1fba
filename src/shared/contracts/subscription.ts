import { z } from 'zod';
import { requiredText } from '../zod-helpers';

// Subscription categories a recipient can unsubscribe from; drag-reorderable, names unique per organisation.

export const subscriptionInputSchema = z.object({ name: requiredText(100) }).strict();
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

export interface Subscription {
  id: number;
  name: string;
  priority: number;
  created_at: string;
  updated_at: string;
}

import { z } from 'zod';
import { answer, stampsShape, whole } from '../answer-schema';
import { requiredText } from '../zod-helpers';

// Subscription categories a recipient can unsubscribe from; drag-reorderable, names unique per organisation.

export const subscriptionInputSchema = z.object({ name: requiredText(100) }).strict();
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

export const subscriptionSchema = answer({ id: whole(), name: z.string(), priority: whole(), ...stampsShape });
export type Subscription = z.infer<typeof subscriptionSchema>;

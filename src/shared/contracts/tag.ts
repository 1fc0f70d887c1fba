import { z } from 'zod';
import { answer, stampsShape, whole } from '../answer-schema';
import { requiredText } from '../zod-helpers';

export const tagInputSchema = z.object({ name: requiredText(100) }).strict();
export type TagInput = z.infer<typeof tagInputSchema>;

export const tagSchema = answer({ id: whole(), name: z.string(), priority: whole(), ...stampsShape });
export type Tag = z.infer<typeof tagSchema>;

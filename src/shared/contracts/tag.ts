import { z } from 'zod';
import { requiredText } from '../zod-helpers';

export const tagInputSchema = z.object({ name: requiredText(100) }).strict();
export type TagInput = z.infer<typeof tagInputSchema>;

export interface Tag {
  id: number;
  name: string;
  priority: number;
  created_at: string;
  updated_at: string;
}


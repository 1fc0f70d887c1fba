import { SimpleGrid } from '@mantine/core';
import { Children, type ReactNode } from 'react';

/** Fields side by side from the `sm` breakpoint up, one under the other on a phone (where two columns cut them). */
export function FormRow({ children }: { children: ReactNode }) {
  const count = Children.toArray(children).filter(Boolean).length;
  return <SimpleGrid cols={{ base: 1, sm: Math.max(1, count) }}>{children}</SimpleGrid>;
}

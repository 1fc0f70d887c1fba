import { Alert, Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateApiError } from '../../lib/server-messages';

/**
 * What every item page shows while its data comes: the load error, else a loader, else its content.
 * `children` is a function so the content is built only once the data is there.
 */
export function LoadState({
  error,
  loading,
  children,
  placeholder,
}: {
  error: unknown;
  loading: boolean;
  children: () => ReactNode;
  /** Shown while loading instead of the spinner: something of the content's size, so nothing below moves when it comes. */
  placeholder?: ReactNode;
}) {
  const { t } = useTranslation();
  if (error) return <Alert color="red">{translateApiError(t, error)}</Alert>;
  if (loading && placeholder) return <>{placeholder}</>;
  if (loading)
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  return <>{children()}</>;
}

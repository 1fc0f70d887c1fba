import type { RecipientsPreview } from '@shared/contracts/broadcast';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useServices } from '../../lib/services-context';
import { previewRecipients } from './api';
import { previewInput, type BroadcastFormValues } from './broadcast-form';

const PREVIEW_DEBOUNCE_MS = 400;

/** The recipients preview of the form's current values, fetched again (debounced) when they change. */
export function useRecipientsPreview(values: BroadcastFormValues) {
  const { client } = useServices();
  const [body] = useDebouncedValue(JSON.stringify(previewInput(values)), PREVIEW_DEBOUNCE_MS);
  const [state, setState] = useState<{ preview: RecipientsPreview | null; loading: boolean; failed: boolean }>({ preview: null, loading: true, failed: false });
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    previewRecipients(client, JSON.parse(body)).then(
      (preview) => current && setState({ preview, loading: false, failed: false }),
      () => current && setState({ preview: null, loading: false, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [client, body]);
  return state;
}

import type { Message } from '@shared/contracts/message';
import type { Template, TemplateInput, TemplateListItem, TemplatePreview, TemplateUpdate, TestMessageInput } from '@shared/contracts/template';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import type { ApiClient } from '../../lib/api-client';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The template collection's API path. */
export const TEMPLATE_PATH = '/template';

/** Template calls (create, update, delete, bulk delete). */
export function useTemplateCalls(): EntityCalls<Template, TemplateInput | TemplateUpdate> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Template, TemplateInput | TemplateUpdate>(client, TEMPLATE_PATH), [client]);
}

/** The template list (items without bodies), server-paged with load more. */
export function useTemplateList(query: ListQuery): EntityListState<TemplateListItem> {
  return useEntityList<TemplateListItem>(TEMPLATE_PATH, query);
}

/** One template with its bodies and attachments (GET /template/:id); no call while id is null. */
export function useTemplate(id: number | null) {
  return useSWR<ItemBody<Template>>(id ? `${TEMPLATE_PATH}/${id}` : null);
}

/** The path of the preview call; 422 messages of a failed render are kept under its request key. */
export const previewPath = (id: number) => `${TEMPLATE_PATH}/${id}/preview`;

/** POST /template/{id}/preview: the subject, body and plain text rendered for a contact (none: placeholders empty). */
export function previewTemplate(client: ApiClient, id: number, contactId: number | null): Promise<TemplatePreview> {
  return client.post<ItemBody<TemplatePreview>>(previewPath(id), { contact_id: contactId }).then((body) => body.data);
}

/** The path of the test-message call. */
export const testMessagePath = (id: number) => `${TEMPLATE_PATH}/${id}/test`;

/** POST /template/{id}/test: queues one test message; the answer is the queued message. */
export function sendTestMessage(client: ApiClient, id: number, input: TestMessageInput): Promise<Message> {
  return client.post<ItemBody<Message>>(testMessagePath(id), input).then((body) => body.data);
}

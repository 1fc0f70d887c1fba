import { Alert, Button, Card, Center, Divider, Group, Loader, Radio, Select, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { UNSUBSCRIBE_LIMITS, UNSUBSCRIBE_REASONS, type UnsubscribePageData, type UnsubscribeReason } from '@shared/contracts/unsubscribe';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { isApiError } from '../../lib/api-error';
import { unsubscribeCalls } from './api';

type Stage = { kind: 'loading' } | { kind: 'invalid' } | { kind: 'ready'; page: UnsubscribePageData };

/**
 * /unsubscribe?m=<signed link>: public (no sign-in), in the browser's language. Opening it changes nothing: the
 * recipient picks the category (the email's own, when it had one), may say why, and confirms; then can undo and
 * change their other categories of the organisation. A forged or stale link gets a page that says so. The link
 * stays in the address bar so a reload still works; it only ever reaches this organisation's page (no referrer).
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const m = useMemo(() => new URLSearchParams(window.location.search).get('m')?.trim() ?? '', []);
  const calls = useMemo(() => unsubscribeCalls(client, m), [client, m]);
  const [stage, setStage] = useState<Stage>(m ? { kind: 'loading' } : { kind: 'invalid' });
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!m) return;
    calls.load().then(
      (page) => setStage({ kind: 'ready', page }),
      (error) => (isApiError(error, 'link_invalid') ? setStage({ kind: 'invalid' }) : setFailed(true)),
    );
  }, [calls, m]);

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Card withBorder shadow="sm" padding="lg" w="100%" maw={520} data-testid="unsubscribe">
        {stage.kind === 'invalid' ? (
          <Stack data-testid="unsubscribe-invalid">
            <Title order={2}>{t('unsubscribe.invalidTitle')}</Title>
            <Text>{t('unsubscribe.invalidText')}</Text>
          </Stack>
        ) : stage.kind === 'loading' ? (
          failed ? (
            <Alert color="red">{t('unsubscribe.failed')}</Alert>
          ) : (
            <Center p="xl">
              <Loader />
            </Center>
          )
        ) : (
          <UnsubscribeForm page={stage.page} calls={calls} onPage={(page) => setStage({ kind: 'ready', page })} />
        )}
      </Card>
    </Center>
  );
}

type Calls = ReturnType<typeof unsubscribeCalls>;

function UnsubscribeForm({ page, calls, onPage }: { page: UnsubscribePageData; calls: Calls; onPage: (page: UnsubscribePageData) => void }) {
  const { t } = useTranslation();
  const subscribed = page.categories.filter((c) => c.subscribed);
  const [chosen, setChosen] = useState<number | null>(page.category?.id ?? subscribed[0]?.id ?? null);
  const [reason, setReason] = useState<UnsubscribeReason | null>(null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ kind: 'done' | 'undone'; id: number; name: string } | null>(null);
  const chosenCategory = page.categories.find((c) => c.id === chosen) ?? null;
  // The category the page asks about is not one of the "other" subscriptions.
  const others = page.categories.filter((c) => c.id !== page.category?.id);
  // The tab says whose page it is.
  useEffect(() => {
    document.title = `${page.organization.name}: ${t('unsubscribe.title')}`;
  }, [page.organization.name, t]);

  const run = async (action: () => Promise<UnsubscribePageData>, after?: () => void) => {
    setBusy(true);
    setError(null);
    try {
      onPage(await action());
      after?.();
    } catch {
      setError(t('unsubscribe.failed'));
    } finally {
      setBusy(false);
    }
  };

  const confirm = () =>
    chosenCategory &&
    run(
      () => calls.leave({ subscription_id: chosenCategory.id, reason, comment: comment.trim() || null }),
      () => setResult({ kind: 'done', id: chosenCategory.id, name: chosenCategory.name }),
    );
  const undo = () =>
    result &&
    run(
      () => calls.join(result.id),
      () => setResult({ ...result, kind: 'undone' }),
    );
  const toggle = (id: number, on: boolean) => run(() => (on ? calls.join(id) : calls.leave({ subscription_id: id, reason: null, comment: null })));

  return (
    <Stack>
      <div>
        <Title order={2}>{t('unsubscribe.title')}</Title>
        <Text c="dimmed" data-testid="unsubscribe-organization">
          {t('unsubscribe.from', { organization: page.organization.name })}
        </Text>
        {page.recipient && (
          <Text size="sm" c="dimmed">
            {t('unsubscribe.recipient', { recipient: page.recipient })}
          </Text>
        )}
      </div>
      {error && <Alert color="red">{error}</Alert>}
      {result ? (
        <Stack data-testid={`unsubscribe-${result.kind}`}>
          <Alert color={result.kind === 'done' ? 'green' : 'blue'}>{t(`unsubscribe.${result.kind}`, { category: result.name })}</Alert>
          {result.kind === 'done' && (
            <Group>
              <Button variant="default" onClick={() => void undo()} loading={busy} data-testid="unsubscribe-undo">
                {t('unsubscribe.undo')}
              </Button>
            </Group>
          )}
        </Stack>
      ) : subscribed.length === 0 ? (
        <Text data-testid="unsubscribe-nothing">{t('unsubscribe.nothingToChoose')}</Text>
      ) : (
        <Stack>
          {page.category && chosenCategory?.subscribed ? (
            <Text fw={600} data-testid="unsubscribe-question">
              {t('unsubscribe.question', { category: page.category.name })}
            </Text>
          ) : (
            <Select
              label={t('unsubscribe.chooseCategory')}
              data={subscribed.map((c) => ({ value: String(c.id), label: c.name }))}
              value={chosen && subscribed.some((c) => c.id === chosen) ? String(chosen) : null}
              onChange={(value) => setChosen(value ? Number(value) : null)}
              allowDeselect={false}
              data-testid="unsubscribe-category"
            />
          )}
          <Radio.Group label={t('unsubscribe.reasonLabel')} value={reason} onChange={(value) => setReason(value as UnsubscribeReason)}>
            <Stack gap={6} mt={6}>
              {UNSUBSCRIBE_REASONS.map((r) => (
                <Radio key={r} value={r} label={t(`unsubscribe.reasons.${r}`)} data-testid={`unsubscribe-reason-${r}`} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label={t('unsubscribe.commentLabel')}
            value={comment}
            maxLength={UNSUBSCRIBE_LIMITS.comment}
            autosize
            minRows={2}
            onChange={(event) => setComment(event.currentTarget.value)}
            data-testid="unsubscribe-comment"
          />
          <Button color="red" onClick={() => void confirm()} loading={busy} disabled={!chosenCategory?.subscribed} data-testid="unsubscribe-confirm">
            {t('unsubscribe.confirm')}
          </Button>
        </Stack>
      )}
      {others.length > 0 && (page.category || page.categories.length > 1) && (
        <>
          <Divider />
          <Text fw={600}>{t('unsubscribe.others')}</Text>
          <Stack gap="xs" data-testid="unsubscribe-categories">
            {others.map((c) => (
              <Switch
                key={c.id}
                label={c.name}
                description={c.subscribed ? t('unsubscribe.subscribed') : t('unsubscribe.notSubscribed')}
                checked={c.subscribed}
                disabled={busy}
                onChange={(event) => void toggle(c.id, event.currentTarget.checked)}
                data-testid={`unsubscribe-toggle-${c.id}`}
              />
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}

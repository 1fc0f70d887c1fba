import { Alert, Button, Group, Paper, Stack, Stepper, Title } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import { IMPORT_MESSAGES, type Import } from '@shared/contracts/import';
import { IconArrowLeft, IconArrowRight, IconPlayerPlay } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { ApiError } from '../../lib/api-error';
import { useInvalidateList } from '../../lib/list-revision';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { FIELD_PATH, useAllFields } from '../field/api';
import { createImport, IMPORT_PATH } from './api';
import type { CsvFormat } from './csv-format';
import { detectFileFormat, previewDataRows, readCsvPreview, type CsvPreview } from './csv-preview';
import { ImportHistory } from './ImportHistory';
import { checkMapping, defaultMapping, mappingIsValid, mappingPayload, type MappingDraft } from './mapping';
import { MappingStep } from './MappingStep';
import { ReviewStep } from './ReviewStep';
import { fileFits, UploadStep } from './UploadStep';
import { uploadImportFile } from './upload';

type Stage = 'review' | 'uploading' | 'creating';

/** The identity of a chosen file (a new choice of the same file counts as the same). */
const fileId = (file: File) => `${file.name}:${file.size}:${file.lastModified}`;

/** The messages of a failed start, in the user's language. */
function startErrorTexts(t: (key: string) => string, error: unknown): string[] {
  if (error instanceof ApiError && Object.keys(error.fields).length) {
    return [
      ...new Set(
        Object.values(error.fields)
          .flat()
          .map((text) => translateServerMessage(t, text)),
      ),
    ];
  }
  if (error instanceof ApiError && error.status === 413) return [translateServerMessage(t, IMPORT_MESSAGES.tooLarge)];
  return [translateApiError(t, error)];
}

/**
 * /contact/import: the 3-step wizard (spec 2): 1 choose a CSV and preview it, 2 map columns to targets,
 * 3 review and start. Starting uploads the file (with progress), creates the import and says the user will be
 * notified; the past imports are listed below and follow live events.
 */
export function ImportPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const invalidate = useInvalidateList();
  const { fields: loadedFields } = useAllFields();
  // Fields made from a column in the mapping step, until the field list has reloaded with them.
  const [madeFields, setMadeFields] = useState<Field[]>([]);
  const fields = useMemo(
    () => [...loadedFields, ...madeFields.filter((made) => !loadedFields.some((field) => field.id === made.id))],
    [loadedFields, madeFields],
  );
  const [format, setFormat] = useState<CsvFormat | null>(null);
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [reading, setReading] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [skipFirstLine, setSkipFirstLine] = useState(true);
  const [drafts, setDrafts] = useState<MappingDraft[]>([]);
  const [mappedFor, setMappedFor] = useState('');
  const [showProblems, setShowProblems] = useState(false);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [subscriptionIds, setSubscriptionIds] = useState<string[]>([]);
  const [stage, setStage] = useState<Stage>('review');
  const [fraction, setFraction] = useState(0);
  const [startError, setStartError] = useState<string[] | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [uploaded, setUploaded] = useState<{ id: string; key: string } | null>(null);
  const [started, setStarted] = useState<Import | null>(null);

  const headers = preview && skipFirstLine ? preview.firstLine : null;
  const samples = useMemo(() => (preview ? previewDataRows(preview, skipFirstLine) : []), [preview, skipFirstLine]);
  const noRows = Boolean(preview) && samples.length === 0;
  const check = useMemo(() => checkMapping(drafts, fields), [drafts, fields]);
  const busy = stage !== 'review';

  const chooseFile = async (chosen: File) => {
    setFile(null);
    setPreview(null);
    setFormat(null);
    setFileError(null);
    setStartError(null);
    setServerErrors({});
    if (!fileFits(chosen)) {
      setFileError(translateServerMessage(t, IMPORT_MESSAGES.tooLarge));
      return;
    }
    setFile(chosen);
    setReading(true);
    try {
      const detected = await detectFileFormat(chosen);
      setFormat(detected);
      setPreview(await readCsvPreview(chosen, detected));
    } catch {
      setFile(null);
      setFileError(t('imports.messages.unreadable'));
    } finally {
      setReading(false);
    }
  };

  /** The user chose another delimiter or encoding: the preview reads the file again with it. */
  const changeFormat = async (next: CsvFormat) => {
    if (!file) return;
    setFormat(next);
    setReading(true);
    try {
      setPreview(await readCsvPreview(file, next));
      setFileError(null);
    } catch {
      setFileError(t('imports.messages.unreadable'));
    } finally {
      setReading(false);
    }
  };

  const toMapping = () => {
    if (!file || !preview || !format) {
      setFileError(t('imports.messages.chooseFile'));
      return;
    }
    if (noRows) return;
    const key = `${fileId(file)}:${skipFirstLine}:${format.delimiter}:${format.encoding}:${fields.map((field) => field.id).join(',')}`;
    if (key !== mappedFor) {
      setDrafts(defaultMapping(headers, preview.columns, fields, samples));
      setMappedFor(key);
      setShowProblems(false);
    }
    setStep(1);
  };

  const toReview = () => {
    setShowProblems(true);
    if (mappingIsValid(check)) setStep(2);
  };

  const start = async () => {
    if (!file || !format) return;
    setStartError(null);
    setServerErrors({});
    try {
      let fileKey = uploaded?.id === fileId(file) ? uploaded.key : null;
      if (!fileKey) {
        setStage('uploading');
        setFraction(0);
        const upload = await uploadImportFile(client, file, setFraction);
        fileKey = upload.file_key;
        setUploaded({ id: fileId(file), key: fileKey });
      }
      setStage('creating');
      const created = await createImport(client, {
        file_key: fileKey,
        file_name: file.name,
        skip_first_line: skipFirstLine,
        delimiter: format.delimiter,
        encoding: format.encoding,
        mapping: mappingPayload(drafts),
        tag_ids: tagIds.map(Number),
        subscription_ids: subscriptionIds.map(Number),
      });
      // The page says it started (import-started) and the live channel says when it finished: no toast as well.
      setStarted(created);
      invalidate(IMPORT_PATH);
      setStep(0);
      setFile(null);
      setPreview(null);
      setFormat(null);
      setDrafts([]);
      setMappedFor('');
      setUploaded(null);
      setShowProblems(false);
      setTagIds([]);
      setSubscriptionIds([]);
    } catch (error) {
      setStartError(startErrorTexts(t, error));
      if (error instanceof ApiError) setServerErrors(error.fields);
    } finally {
      setStage('review');
    }
  };

  return (
    <>
      <PageBreadcrumbs section="import" />
      <Title order={2} mb="md">
        {t('imports.title')}
      </Title>
      {started && (
        <Alert color="blue" mb="md" withCloseButton onClose={() => setStarted(null)} data-testid="import-started">
          {t('imports.startedFor', { file: started.file_name })}
        </Alert>
      )}
      <Paper withBorder p="lg" mb="xl" data-testid="import-wizard" data-step={step + 1}>
        <Stepper active={step} onStepClick={(target) => !busy && target < step && setStep(target)} mb="lg">
          <Stepper.Step label={t('imports.steps.upload')} description={t('imports.steps.uploadHint')} data-testid="import-step-1" />
          <Stepper.Step label={t('imports.steps.mapping')} description={t('imports.steps.mappingHint')} data-testid="import-step-2" />
          <Stepper.Step label={t('imports.steps.review')} description={t('imports.steps.reviewHint')} data-testid="import-step-3" />
        </Stepper>
        <Stack>
          {step === 0 && (
            <UploadStep
              file={file}
              preview={preview}
              reading={reading}
              error={fileError ?? (noRows ? translateServerMessage(t, IMPORT_MESSAGES.noRows) : null)}
              skipFirstLine={skipFirstLine}
              onFile={(chosen) => void chooseFile(chosen)}
              onSkipFirstLine={setSkipFirstLine}
              format={format}
              onFormat={(next) => void changeFormat(next)}
            />
          )}
          {step === 1 && (
            <MappingStep
              drafts={drafts}
              onChange={setDrafts}
              headers={headers}
              samples={samples}
              fields={fields}
              check={check}
              showProblems={showProblems}
              serverErrors={serverErrors}
              onFieldCreated={(field) => {
                setMadeFields((made) => [...made, field]);
                invalidate(FIELD_PATH);
              }}
            />
          )}
          {step === 2 && file && format && (
            <ReviewStep
              file={file}
              format={format}
              skipFirstLine={skipFirstLine}
              drafts={drafts}
              headers={headers}
              fields={fields}
              tagIds={tagIds}
              onTagIds={setTagIds}
              subscriptionIds={subscriptionIds}
              onSubscriptionIds={setSubscriptionIds}
              uploadFraction={fraction}
              stage={stage}
              error={startError}
            />
          )}
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} />}
              disabled={step === 0 || busy}
              onClick={() => setStep(step - 1)}
              data-testid="import-back"
            >
              {t('imports.back')}
            </Button>
            {step < 2 ? (
              <Button
                rightSection={<IconArrowRight size={16} />}
                onClick={step === 0 ? toMapping : toReview}
                disabled={reading || (step === 0 && (!preview || noRows))}
                data-testid="import-next"
              >
                {t('imports.next')}
              </Button>
            ) : (
              <Button leftSection={<IconPlayerPlay size={16} />} onClick={() => void start()} loading={busy} data-testid="import-start">
                {t('imports.start')}
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      <ImportHistory />
    </>
  );
}

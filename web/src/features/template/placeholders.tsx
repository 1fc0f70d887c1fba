import { Accordion, Anchor, Button, Code, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { TEMPLATE_SYNTAX, TEMPLATE_VARIABLES } from '@shared/contracts/template';
import { IconBraces } from '@tabler/icons-react';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

// Placeholder help (spec 2, "test preview with placeholders"): the Liquid syntax and the variables documented
// in the template contract, each with a button that inserts it where the cursor was last (subject, body or
// plain body).

/** Something text can be inserted into: a plain input, or the rich-text editor (which also takes HTML). */
export interface InsertTarget {
  rich: boolean;
  insertText: (text: string) => void;
  insertHtml?: (html: string) => void;
}

/** The insert targets of one form: the last focused one wins; the body is the fallback. */
export class InsertTargets {
  current: InsertTarget | null = null;
  fallback: InsertTarget | null = null;

  /** Inserts a variable: its example, or `{{ name }}` when the example is HTML and the target is plain text. */
  insert(variable: { name: string; example: string }): void {
    const target = this.current ?? this.fallback;
    if (!target) return;
    const html = /<[a-z]/i.test(variable.example);
    if (target.rich && html && target.insertHtml) target.insertHtml(variable.example);
    else target.insertText(html ? `{{ ${variable.name} }}` : variable.example);
  }
}

/** The locale key of a variable's description: 'contact.fields.<alias>' -> templates.variables.contact_fields_alias. */
export function variableKey(name: string): string {
  return `templates.variables.${name.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

/** Puts text into an input at its cursor (replacing a selection) and reports the new value. */
export function insertAtCursor(element: HTMLInputElement | HTMLTextAreaElement, text: string, onChange: (value: string) => void): void {
  const start = element.selectionStart ?? element.value.length;
  const end = element.selectionEnd ?? start;
  onChange(element.value.slice(0, start) + text + element.value.slice(end));
  requestAnimationFrame(() => {
    element.focus();
    element.setSelectionRange(start + text.length, start + text.length);
  });
}

/** The variables table with insert buttons (data-testid placeholder-insert-<name>). */
export function PlaceholderHelp({ targets }: { targets: InsertTargets }) {
  const { t } = useTranslation();
  return (
    <Accordion variant="contained" data-testid="placeholder-help">
      <Accordion.Item value="placeholders">
        <Accordion.Control icon={<IconBraces size={16} />}>{t('templates.placeholders.title')}</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="xs">
            <Text size="sm">
              {t('templates.placeholders.syntax')}{' '}
              <Anchor href="https://liquidjs.com/tutorials/intro-to-liquid.html" target="_blank" rel="noreferrer" size="sm">
                {t('templates.placeholders.syntaxLink', { syntax: TEMPLATE_SYNTAX === 'liquid' ? 'Liquid' : TEMPLATE_SYNTAX })}
              </Anchor>
            </Text>
            <Text size="sm">
              <Code>{'{{ contact.name }}'}</Code> · <Code>{'{% if contact.fields.vip %}…{% endif %}'}</Code> ·{' '}
              <Code>{'{{ contact.name | default: "friend" }}'}</Code>
            </Text>
            <Text size="sm" c="dimmed">
              {t('templates.placeholders.rules')}
            </Text>
            <Table striped withTableBorder verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('templates.placeholders.variable')}</Table.Th>
                  <Table.Th>{t('templates.placeholders.description')}</Table.Th>
                  <Table.Th>{t('templates.placeholders.example')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {TEMPLATE_VARIABLES.map((variable) => (
                  <Table.Tr key={variable.name}>
                    <Table.Td>
                      <Code>{variable.name}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{t(variableKey(variable.name), { defaultValue: variable.description })}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{variable.example}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        variant="light"
                        data-testid={`placeholder-insert-${variable.name}`}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => targets.insert(variable)}
                      >
                        {t('templates.placeholders.insert')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

interface PlaceholderInputProps {
  name: string;
  label: ReactNode;
  description?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
  required?: boolean;
  maxLength?: number;
  targets: InsertTargets;
  /** A multi-line text area (text body, plain body) instead of one line (subject). */
  multiline?: boolean;
  /** The body: placeholders go here when nothing else had the focus. */
  isFallback?: boolean;
}

/** A text input or area that placeholders can be inserted into (it becomes the target when focused). */
export function PlaceholderInput(props: PlaceholderInputProps) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const target: InsertTarget = {
    rich: false,
    insertText: (text) => {
      if (ref.current) insertAtCursor(ref.current, text, props.onChange);
      else props.onChange(props.value + text);
    },
  };
  if (props.isFallback) props.targets.fallback = target;
  const common = {
    ref,
    label: props.label,
    description: props.description,
    error: props.error,
    withAsterisk: props.required,
    maxLength: props.maxLength,
    name: props.name,
    'data-testid': `form-field-${props.name}`,
    value: props.value,
    onFocus: () => (props.targets.current = target),
    onChange: (event: { currentTarget: { value: string } }) => props.onChange(event.currentTarget.value),
  };
  return props.multiline ? <Textarea {...common} autosize minRows={props.isFallback ? 6 : 4} /> : <TextInput {...common} />;
}

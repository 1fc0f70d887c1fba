import { ActionIcon, Button, ColorSwatch, Divider, Group, NativeSelect, Popover, Stack, TextInput, Tooltip } from '@mantine/core';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import {
  IconAlignCenter,
  IconAlignJustified,
  IconAlignLeft,
  IconAlignRight,
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBold,
  IconCode,
  IconItalic,
  IconLink,
  IconList,
  IconListNumbers,
  IconPalette,
  IconPhoto,
  IconSourceCode,
  IconStrikethrough,
  IconUnderline,
  IconUnlink,
} from '@tabler/icons-react';
import { $createRangeSelectionFromDom, $getSelection, $setSelection, REDO_COMMAND, UNDO_COMMAND, type BaseSelection } from 'lexical';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  $insertImage,
  $readToolbarState,
  $setAlignment,
  $setBlockType,
  $setColor,
  $setLink,
  $toggleFormat,
  $toggleList,
  ALIGNMENTS,
  BLOCK_TYPES,
  EMPTY_TOOLBAR_STATE,
  TEXT_COLORS,
  TEXT_FORMATS,
  type Alignment,
  type BlockType,
  type TextFormat,
} from './actions';

const FORMAT_ICONS: Record<TextFormat, ReactNode> = {
  bold: <IconBold size={16} />,
  italic: <IconItalic size={16} />,
  underline: <IconUnderline size={16} />,
  strikethrough: <IconStrikethrough size={16} />,
  code: <IconCode size={16} />,
};
const ALIGN_ICONS: Record<Alignment, ReactNode> = {
  left: <IconAlignLeft size={16} />,
  center: <IconAlignCenter size={16} />,
  right: <IconAlignRight size={16} />,
  justify: <IconAlignJustified size={16} />,
};

/** A toolbar button (data-testid rte-<name>) that keeps the editor's focus and selection. */
function ToolButton({
  name,
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  name: string;
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow openDelay={400}>
      <ActionIcon
        variant={active ? 'filled' : 'subtle'}
        color={active ? undefined : 'gray'}
        aria-label={label}
        aria-pressed={active}
        data-testid={`rte-${name}`}
        disabled={disabled}
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** The editor's toolbar: block type (paragraph, headings 1-6, quote), text formats, lists, colour, alignment, link, image, undo/redo, HTML source. */
export function Toolbar({ sourceMode, onToggleSource, disabled }: { sourceMode: boolean; onToggleSource: () => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [editor] = useLexicalComposerContext();
  const [state, setState] = useState(EMPTY_TOOLBAR_STATE);
  // The selection when a popover opened: its input takes the focus, so the edit goes back to this selection.
  const saved = useRef<BaseSelection | null>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkUrl, setLinkUrl] = useState('');
  const [imageOpen, setImageOpen] = useState(false);
  const [image, setImage] = useState({ src: '', alt: '' });
  const [colorOpen, setColorOpen] = useState(false);

  useEffect(() => editor.registerUpdateListener(({ editorState }) => editorState.read(() => setState($readToolbarState()), { editor })), [editor]);

  const run = (action: () => void) => editor.update(action);
  // The browser's selection first: Lexical learns of a new selection from the asynchronous `selectionchange`
  // event, so a person who selects a word and clicks "link" at once would otherwise link the previous selection
  // (a collapsed cursor: nothing) and lose the link.
  const remember = () =>
    editor.read(() => {
      const selection = $createRangeSelectionFromDom(window.getSelection(), editor) ?? $getSelection();
      saved.current = selection ? selection.clone() : null;
    });
  // A popover's input had the focus: act on the selection the popover was opened for, then give the focus back.
  const withSaved = (action: () => void) => {
    editor.update(() => {
      if (saved.current) $setSelection(saved.current.clone());
      action();
    });
    editor.focus();
  };
  const off = disabled || sourceMode;

  return (
    <Group gap={4} p={6} className="rte-toolbar" data-testid="rte-toolbar" wrap="wrap">
      <NativeSelect
        size="xs"
        aria-label={t('richText.blockType')}
        data-testid="rte-block"
        disabled={off}
        value={state.block === 'list' ? '' : state.block}
        onChange={(event) => {
          const value = event.currentTarget.value as BlockType;
          if (value) run(() => $setBlockType(value));
        }}
        data={[
          ...(state.block === 'list' ? [{ value: '', label: t('richText.list') }] : []),
          ...BLOCK_TYPES.map((type) => ({ value: type, label: t(`richText.blocks.${type}`) })),
        ]}
      />
      <Divider orientation="vertical" />
      {TEXT_FORMATS.map((format) => (
        <ToolButton
          key={format}
          name={format}
          label={t(`richText.formats.${format}`)}
          active={state.formats[format]}
          disabled={off}
          onClick={() => run(() => $toggleFormat(format))}
        >
          {FORMAT_ICONS[format]}
        </ToolButton>
      ))}
      <Popover opened={colorOpen} onChange={setColorOpen} withArrow shadow="md" trapFocus={false}>
        <Popover.Target>
          <ActionIcon
            variant={state.color ? 'light' : 'subtle'}
            color="gray"
            aria-label={t('richText.color')}
            data-testid="rte-color"
            disabled={off}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              remember();
              setColorOpen((open) => !open);
            }}
          >
            <IconPalette size={16} color={state.color || undefined} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <Group gap={6}>
              {TEXT_COLORS.map((color) => (
                <ColorSwatch
                  key={color}
                  component="button"
                  type="button"
                  color={color}
                  size={22}
                  aria-label={color}
                  data-testid={`rte-color-${color.slice(1)}`}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    withSaved(() => $setColor(color));
                    setColorOpen(false);
                  }}
                />
              ))}
            </Group>
            <Button
              size="xs"
              variant="default"
              data-testid="rte-color-remove"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                withSaved(() => $setColor(null));
                setColorOpen(false);
              }}
            >
              {t('richText.removeColor')}
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <Divider orientation="vertical" />
      <ToolButton
        name="bullet"
        label={t('richText.bulletList')}
        active={state.list === 'bullet'}
        disabled={off}
        onClick={() => run(() => $toggleList('bullet'))}
      >
        <IconList size={16} />
      </ToolButton>
      <ToolButton
        name="number"
        label={t('richText.numberedList')}
        active={state.list === 'number'}
        disabled={off}
        onClick={() => run(() => $toggleList('number'))}
      >
        <IconListNumbers size={16} />
      </ToolButton>
      <Divider orientation="vertical" />
      {ALIGNMENTS.map((align) => (
        <ToolButton
          key={align}
          name={`align-${align}`}
          label={t(`richText.align.${align}`)}
          active={state.align === align}
          disabled={off}
          onClick={() => run(() => $setAlignment(align))}
        >
          {ALIGN_ICONS[align]}
        </ToolButton>
      ))}
      <Divider orientation="vertical" />
      <Popover opened={linkOpen} onChange={setLinkOpen} withArrow shadow="md" width={320}>
        <Popover.Target>
          <ActionIcon
            variant={state.link !== null ? 'filled' : 'subtle'}
            color={state.link !== null ? undefined : 'gray'}
            aria-label={t('richText.link')}
            data-testid="rte-link"
            disabled={off}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              remember();
              setLinkUrl(state.link ?? '');
              setLinkOpen((open) => !open);
            }}
          >
            <IconLink size={16} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <TextInput
              size="xs"
              label={t('richText.linkUrl')}
              placeholder="https://"
              data-testid="rte-link-url"
              value={linkUrl}
              onChange={(event) => setLinkUrl(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return;
                event.preventDefault();
                withSaved(() => $setLink(linkUrl));
                setLinkOpen(false);
              }}
            />
            <Group gap="xs">
              <Button
                size="xs"
                data-testid="rte-link-save"
                disabled={!linkUrl.trim()}
                onClick={() => {
                  withSaved(() => $setLink(linkUrl));
                  setLinkOpen(false);
                }}
              >
                {t('richText.linkSave')}
              </Button>
              {state.link !== null && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  leftSection={<IconUnlink size={14} />}
                  data-testid="rte-link-remove"
                  onClick={() => {
                    withSaved(() => $setLink(null));
                    setLinkOpen(false);
                  }}
                >
                  {t('richText.linkRemove')}
                </Button>
              )}
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <Popover opened={imageOpen} onChange={setImageOpen} withArrow shadow="md" width={320}>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('richText.image')}
            data-testid="rte-image"
            disabled={off}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              remember();
              setImage({ src: '', alt: '' });
              setImageOpen((open) => !open);
            }}
          >
            <IconPhoto size={16} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <TextInput
              size="xs"
              label={t('richText.imageUrl')}
              placeholder="https://"
              data-testid="rte-image-url"
              value={image.src}
              onChange={(event) => setImage({ ...image, src: event.currentTarget.value })}
            />
            <TextInput
              size="xs"
              label={t('richText.imageAlt')}
              data-testid="rte-image-alt"
              value={image.alt}
              onChange={(event) => setImage({ ...image, alt: event.currentTarget.value })}
            />
            <Button
              size="xs"
              data-testid="rte-image-insert"
              disabled={!image.src.trim()}
              onClick={() => {
                withSaved(() => $insertImage(image.src, image.alt));
                setImageOpen(false);
              }}
            >
              {t('richText.imageInsert')}
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <Divider orientation="vertical" />
      <ToolButton name="undo" label={t('richText.undo')} disabled={off} onClick={() => editor.dispatchCommand(UNDO_COMMAND, undefined)}>
        <IconArrowBackUp size={16} />
      </ToolButton>
      <ToolButton name="redo" label={t('richText.redo')} disabled={off} onClick={() => editor.dispatchCommand(REDO_COMMAND, undefined)}>
        <IconArrowForwardUp size={16} />
      </ToolButton>
      <ToolButton name="source" label={t('richText.source')} active={sourceMode} disabled={disabled} onClick={onToggleSource}>
        <IconSourceCode size={16} />
      </ToolButton>
    </Group>
  );
}

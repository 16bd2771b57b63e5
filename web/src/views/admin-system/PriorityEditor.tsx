// The ordered list of up to five API keys for one timestamp or payload key, highest priority first. Keys are added
// from a list and moved with buttons (no dragging), so a keyboard user can do all of it; the moved key's button
// keeps the focus, and a live region says where the key went.

import { ActionIcon, Badge, Button, Group, NativeSelect, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../api/client.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import { Refusal } from '../../components/states-ui.tsx';
import { text } from './shared.tsx';

/** The most keys a priority list holds (the original's limit). */
export const MAX_PRIORITY_KEYS = 5;

export interface PriorityApiKey {
  id: number;
  name: string | null;
  is_active: boolean | null;
}

export interface WeightedApiKey {
  api_key_id: number;
  api_key_name?: string | null;
  weight?: number | null;
}

export interface PriorityEditorProps {
  /** Every API key that may be chosen. */
  apiKeys: readonly PriorityApiKey[];
  /** The ids in force, highest priority first. */
  initial: readonly number[];
  /** What an empty list means for this kind of priority. */
  emptyMeaning: string;
  saving: boolean;
  error?: ApiError | null;
  onSave: (ids: number[]) => void;
  onCancel: () => void;
}

type Move = 'up' | 'down' | 'remove';

export function PriorityEditor({
  apiKeys,
  initial,
  emptyMeaning,
  saving,
  error,
  onSave,
  onCancel,
}: PriorityEditorProps) {
  const { t } = useTranslation();
  const [order, setOrder] = useState<number[]>(() => [...initial].slice(0, MAX_PRIORITY_KEYS));
  const [choice, setChoice] = useState('');
  const [said, setSaid] = useState('');
  const [focusNext, setFocusNext] = useState<{ id: number; move: Move } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const picker = useRef<HTMLSelectElement>(null);

  const nameOf = (id: number) => {
    const key = apiKeys.find((k) => k.id === id);
    return key ? text(key.name) || t('API key {{id}}', { id }) : t('API key {{id}}', { id });
  };
  const inactive = (id: number) => apiKeys.find((k) => k.id === id)?.is_active === false;
  const available = apiKeys.filter((k) => !order.includes(k.id));
  const full = order.length >= MAX_PRIORITY_KEYS;

  // After a move the same button of the moved key gets the focus again (its row is now elsewhere); a button that
  // no longer applies (moved to the top) hands it to its neighbour, and a removed key hands it to the picker.
  useEffect(() => {
    if (!focusNext) return;
    const { id, move } = focusNext;
    setFocusNext(null);
    if (move === 'remove') {
      picker.current?.focus();
      return;
    }
    const wanted = list.current?.querySelector<HTMLButtonElement>(`[data-move="${move}-${id}"]:not(:disabled)`);
    const other = list.current?.querySelector<HTMLButtonElement>(
      `[data-move="${move === 'up' ? 'down' : 'up'}-${id}"]:not(:disabled)`,
    );
    (wanted ?? other)?.focus();
  }, [focusNext]);

  const apply = (id: number, move: Move) => {
    const index = order.indexOf(id);
    const next = [...order];
    if (move === 'remove') {
      next.splice(index, 1);
      setSaid(t('{{name}} removed', { name: nameOf(id) }));
    } else {
      const target = move === 'up' ? index - 1 : index + 1;
      if (target < 0 || target >= next.length) return;
      [next[index], next[target]] = [next[target], next[index]];
      setSaid(t('{{name}} moved to place {{place}}', { name: nameOf(id), place: target + 1 }));
    }
    setOrder(next);
    setFocusNext({ id, move });
  };

  const add = () => {
    const id = Number(choice);
    if (!choice || !Number.isInteger(id) || order.includes(id) || full) return;
    setOrder([...order, id]);
    setChoice('');
    setSaid(t('{{name}} added at place {{place}}', { name: nameOf(id), place: order.length + 1 }));
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('Highest priority first. At most {{max}} keys.', { max: MAX_PRIORITY_KEYS })}
      </Text>
      {order.length === 0 ? (
        <Text size="sm" fs="italic">
          {t(emptyMeaning)}
        </Text>
      ) : (
        <ol ref={list} aria-label={t('Priority order')} style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {order.map((id, index) => (
            <PriorityRow
              key={id}
              id={id}
              place={index + 1}
              last={index === order.length - 1}
              name={nameOf(id)}
              inactive={inactive(id)}
              onMove={apply}
            />
          ))}
        </ol>
      )}
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <NativeSelect
          ref={picker}
          label={t('Add an API key')}
          description={full ? t('The list is full: remove a key first.') : undefined}
          disabled={full || available.length === 0}
          value={choice}
          onChange={(event) => setChoice(event.currentTarget.value)}
          data={[
            { value: '', label: t(available.length === 0 ? 'No more keys' : 'Choose a key…') },
            ...available.map((k) => ({
              value: String(k.id),
              label: k.is_active === false ? `${nameOf(k.id)} (${t('disabled')})` : nameOf(k.id),
            })),
          ]}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button variant="light" onClick={add} disabled={!choice || full}>
          {t('Add')}
        </Button>
      </Group>
      <VisuallyHidden aria-live="polite">{said}</VisuallyHidden>
      <Refusal error={error} />
      <FormButtons onCancel={onCancel} submitLabel="Save" pending={saving} onConfirm={() => onSave(order)} />
    </Stack>
  );
}

interface PriorityRowProps {
  id: number;
  /** 1 for the highest priority. */
  place: number;
  last: boolean;
  name: string;
  inactive: boolean;
  onMove: (id: number, move: Move) => void;
}

/** One key of the list, with its place and its up, down and remove buttons. */
function PriorityRow({ id, place, last, name, inactive, onMove }: PriorityRowProps) {
  const { t } = useTranslation();
  return (
    <li>
      <Paper withBorder p={6} mb={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge variant="light" circle aria-hidden>
              {place}
            </Badge>
            <Text size="sm" truncate>
              <VisuallyHidden component="span">{t('Place {{place}}:', { place })} </VisuallyHidden>
              {name}
            </Text>
            {inactive && (
              <Badge color="gray" variant="outline" size="sm">
                {t('Disabled')}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="default"
              data-move={`up-${id}`}
              aria-label={t('Move {{name}} up', { name })}
              disabled={place === 1}
              onClick={() => onMove(id, 'up')}
            >
              <span aria-hidden>↑</span>
            </ActionIcon>
            <ActionIcon
              variant="default"
              data-move={`down-${id}`}
              aria-label={t('Move {{name}} down', { name })}
              disabled={last}
              onClick={() => onMove(id, 'down')}
            >
              <span aria-hidden>↓</span>
            </ActionIcon>
            <ActionIcon
              variant="default"
              color="red"
              aria-label={t('Remove {{name}}', { name })}
              onClick={() => onMove(id, 'remove')}
            >
              <span aria-hidden>×</span>
            </ActionIcon>
          </Group>
        </Group>
      </Paper>
    </li>
  );
}

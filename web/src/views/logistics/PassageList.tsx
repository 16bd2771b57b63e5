// The gate passages as a person at the gate reads them: which way the truck went (an arrow and a word, not only a
// colour), when in the browser's zone and how long ago, at which checkpoint, its plates (`ABC-123 (FIN)`) and
// containers. Cards wrap instead of a wide table, so a phone shows the same list without sideways scrolling.

import { Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRelative, formatTime } from '../../components/time.ts';
import classes from './logistics.module.css';
import { formatPlate, type Passage, type Plate } from './model.ts';

/** The current time, moved on every half minute so "5 min ago" stays true (no call to the server). */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function Direction({ direction }: { direction: Passage['direction'] }) {
  const { t } = useTranslation();
  // A word and an arrow, and a filled (arrived) or outlined (departed) chip: readable without seeing colour.
  return (
    <span className={classes.direction} data-direction={direction ?? 'unknown'}>
      {direction !== null && <span aria-hidden>{direction === 'In' ? '→ ' : '← '}</span>}
      {direction === 'In' ? t('Arrived') : direction === 'Out' ? t('Departed') : t('Direction unknown')}
    </span>
  );
}

/** `ABC-123 (FIN)`: the number as painted, the nationality beside it when the gate read one. */
export function plateText(plate: Plate): string {
  const number = formatPlate(plate.number);
  return plate.nationality ? `${number} (${plate.nationality})` : number;
}

function Plates({ label, plates }: { label: string; plates: Plate[] }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" component="div">
      <Text span c="gray.7" size="sm">
        {t(label)}:{' '}
      </Text>
      {plates.length === 0 ? (
        <Text span size="sm" c="gray.7">
          {t('none')}
        </Text>
      ) : (
        <Text span fw={700} ff="monospace" size="sm" className={classes.plate}>
          {plates.map(plateText).join(', ')}
        </Text>
      )}
    </Text>
  );
}

export function PassageCard({ passage, now }: { passage: Passage; now: number }) {
  const { t } = useTranslation();
  const relative = formatRelative(passage.time, now);
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      className={classes.passage}
      data-direction={passage.direction ?? 'unknown'}
      aria-label={t('{{direction}} {{time}} at {{checkpoint}}', {
        direction: passage.direction === 'In' ? t('Arrived') : passage.direction === 'Out' ? t('Departed') : '',
        time: formatTime(passage.time),
        checkpoint: passage.checkpoint || t('unknown checkpoint'),
      })}
    >
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <Direction direction={passage.direction} />
          {passage.time ? (
            <time dateTime={passage.time}>
              <Text span fw={600}>
                {formatTime(passage.time)}
              </Text>
              {relative && (
                <Text span c="gray.7" size="sm">
                  {' '}
                  ({relative})
                </Text>
              )}
            </time>
          ) : (
            <Text span c="gray.7">
              {t('time unknown')}
            </Text>
          )}
          <Text span size="sm">
            <Text span c="gray.7" size="sm">
              {t('Checkpoint')}:{' '}
            </Text>
            {passage.checkpoint || t('unknown')}
          </Text>
        </Group>
        <Plates label="Front plates" plates={passage.frontPlates} />
        <Plates label="Rear plates" plates={passage.rearPlates} />
        <Text size="sm" component="div">
          <Text span c="gray.7" size="sm">
            {t('Containers')}:{' '}
          </Text>
          {passage.containers.length === 0 ? (
            <Text span size="sm" c="gray.7">
              {t('none')}
            </Text>
          ) : (
            <Text span ff="monospace" size="sm" className={classes.plate}>
              {passage.containers.join(', ')}
            </Text>
          )}
        </Text>
      </Stack>
    </Paper>
  );
}

export function PassageList({ passages, label }: { passages: Passage[]; label: string }) {
  const { t } = useTranslation();
  const now = useNow();
  return (
    <Stack component="ul" gap="xs" className={classes.list} aria-label={t(label)}>
      {passages.map((passage) => (
        <PassageCard key={passage.key} passage={passage} now={now} />
      ))}
    </Stack>
  );
}

// A new password typed twice, used by registration, the reset link and the profile. The two must match before
// anything is sent: a typo in a password field is invisible, and the server cannot catch it. The password rules
// (length, unique characters, not the username) depend on the role and are the server's: its answer is shown in
// words by the form.

import { PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface PasswordPairState {
  password: string;
  repeat: string;
  setPassword(value: string): void;
  setRepeat(value: string): void;
  /** Shows the fields' problems from now on; returns the password when both fields agree, else null. */
  check(): string | null;
  showProblems: boolean;
  reset(): void;
}

export function usePasswordPair(): PasswordPairState {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [showProblems, setShowProblems] = useState(false);
  return {
    password,
    repeat,
    setPassword,
    setRepeat,
    showProblems,
    check() {
      setShowProblems(true);
      return password !== '' && password === repeat ? password : null;
    },
    reset() {
      setPassword('');
      setRepeat('');
      setShowProblems(false);
    },
  };
}

/** What is wrong with the pair, in English (the key for `t`), or null. */
export function passwordPairProblems(pair: Pick<PasswordPairState, 'password' | 'repeat'>): {
  password: string | null;
  repeat: string | null;
} {
  return {
    password: pair.password === '' ? 'Enter a password' : null,
    repeat: pair.repeat !== pair.password ? 'The passwords do not match' : null,
  };
}

export function PasswordPair({
  pair,
  label = 'Password',
  repeatLabel = 'Repeat the password',
}: {
  pair: PasswordPairState;
  label?: string;
  repeatLabel?: string;
}) {
  const { t } = useTranslation();
  const problems = passwordPairProblems(pair);
  // The repeat's mismatch waits until a password is typed.
  const fields = [
    { label, name: 'new-password', value: pair.password, onChange: pair.setPassword, problem: problems.password },
    {
      label: repeatLabel,
      name: 'repeat-password',
      value: pair.repeat,
      onChange: pair.setRepeat,
      problem: pair.password !== '' ? problems.repeat : null,
    },
  ];
  return (
    <Stack gap="sm">
      {fields.map((field) => (
        <PasswordInput
          key={field.name}
          label={t(field.label)}
          name={field.name}
          autoComplete="new-password"
          required
          value={field.value}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          error={pair.showProblems && field.problem ? t(field.problem) : undefined}
        />
      ))}
    </Stack>
  );
}

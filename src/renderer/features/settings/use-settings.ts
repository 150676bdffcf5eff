/**
 * Changing settings: every change goes to main (`settings.update`), the
 * answer replaces the cached settings, and a change of what Skein talks to
 * (mode, base URL, key) drops every cached API answer, in main and here.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CredentialsStatus, Settings } from '../../../shared/ipc/settings';
import { skein } from '../../lib/bridge';
import { forgetApiAnswers, settingsKeys } from '../../lib/settings';

type SettingsPatch = Partial<Settings>;

/** Fields whose change makes cached answers belong to another service or account. */
const CHANGES_WHO_ANSWERS: ReadonlyArray<keyof Settings> = ['mode', 'baseUrl'];

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (patch: SettingsPatch) => {
      const before = client.getQueryData<Settings>(settingsKeys.settings());
      const after = await skein().settings.update(patch);
      const switched = CHANGES_WHO_ANSWERS.some((k) => k in patch && (!before || before[k] !== after[k]));
      if (switched) await skein().cache.clear();
      return { after, switched };
    },
    onSuccess: async ({ after, switched }) => {
      client.setQueryData(settingsKeys.settings(), after);
      // where the key may be kept depends on settings too
      await client.invalidateQueries({ queryKey: settingsKeys.credentials() });
      if (switched) await forgetApiAnswers(client);
    },
  });
}

export function useSetKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: { key: string } | { clear: true }): Promise<CredentialsStatus> => {
      const status =
        'key' in change ? await skein().credentials.set({ key: change.key }) : await skein().credentials.clear();
      await skein().cache.clear();
      return status;
    },
    onSuccess: async (status) => {
      client.setQueryData(settingsKeys.credentials(), status);
      // the mode in force is now kept as the person's choice: the Mode control reads it again
      await client.invalidateQueries({ queryKey: settingsKeys.settings() });
      await forgetApiAnswers(client);
    },
  });
}

export function useClearCache() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => skein().cache.clear(),
    onSuccess: async () => {
      await forgetApiAnswers(client);
    },
  });
}

// Server state through TanStack Query. Query keys are [path, params], so a real-time signal can refresh every
// query of a path at once (`refresh(path)`), whatever page or filter each shows.

import { notifications } from '@mantine/notifications';
import {
  keepPreviousData,
  type QueryClient,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type ApiError, api, type Params } from './client.ts';

export function useApiQuery<T>(
  path: string,
  params?: Params,
  options: Omit<UseQueryOptions<T, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<T, ApiError>({
    queryKey: [path, params ?? {}],
    queryFn: () => api<T>('GET', path, params),
    // A list keeps showing its page while the next one loads, instead of flashing empty.
    placeholderData: keepPreviousData,
    ...options,
  });
}

/** Refetches every active query of these paths (after a change, or on a real-time signal). */
export function refresh(client: QueryClient, ...paths: string[]): Promise<void> {
  return client.invalidateQueries({ predicate: (query) => paths.includes(query.queryKey[0] as string) });
}

interface MutationOptions<I, T> {
  /** Paths whose queries are refreshed after success. */
  refreshes?: string[];
  /** Shown as a green notification after success. */
  success?: string | ((result: T, input: I) => string);
  onSuccess?: (result: T, input: I) => void;
}

/**
 * A change through the API. Its error is shown as a notification in the API's words (translated when a
 * translation exists); the 440 of an ended session is not, as the user is sent to sign in instead.
 */
export function useApiMutation<I extends Params | undefined, T = unknown>(
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  path: string | ((input: I) => string),
  options: MutationOptions<I, T> = {},
) {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation<T, ApiError, I>({
    mutationFn: (input: I) => api<T>(method, typeof path === 'function' ? path(input) : path, input),
    onSuccess: async (result, input) => {
      if (options.refreshes?.length) await refresh(client, ...options.refreshes);
      if (options.success) {
        const message = typeof options.success === 'function' ? options.success(result, input) : options.success;
        notifications.show({ color: 'green', message: t(message) });
      }
      options.onSuccess?.(result, input);
    },
    onError: (error) => {
      if (error.status === 440) return;
      notifications.show({ color: 'red', title: t('Not done'), message: t(error.message) });
    },
  });
}

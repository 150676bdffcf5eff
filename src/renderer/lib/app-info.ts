/**
 * What the running app is (name, version, mode, platform): read by the shell
 * and by the views that depend on the mode.
 */
import { queryOptions } from '@tanstack/react-query';
import { skein } from './bridge';

export const appKeys = {
  info: () => ['app', 'info'] as const,
};

export const appInfoQuery = () =>
  queryOptions({ queryKey: appKeys.info(), queryFn: () => skein().app.info(), staleTime: Number.POSITIVE_INFINITY });

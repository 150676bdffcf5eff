/**
 * Route `#/space/:id`: an audio space, live. While it runs, the window is
 * visible and the user has not paused, it is polled every
 * `participants.poll_interval_sec` seconds; each poll shows who joined and
 * who left since the previous one. Polling starts only after the user has
 * seen what it costs.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { SpaceData } from '../../../../shared/api/schemas';
import { SkeinError } from '../../../../shared/errors';
import { ErrorState } from '../../../components/ErrorState';
import { SkeletonList } from '../../../components/states';
import { ViewFrame } from '../../../components/ViewFrame';
import type { Route } from '../../../lib/routes';
import { ExportButton, exportView } from '../../export';
import { CacheNote } from '../../../components/usage/CacheNote';
import { useLive } from '../live-store';
import { diffParticipants, groupParticipants, type Groups, type ParticipantDiff } from '../participants';
import { safeInterval } from '../poll-cost';
import { spaceQuery } from '../queries';
import { summarizeSpace } from '../space-summary';
import { useTicker } from '../../../lib/ticker';
import { useDocumentVisible } from '../use-visibility';
import { LiveControls } from './LiveControls';
import { Participants } from './Participants';
import { SpaceHeader } from './SpaceHeader';
import './space.css';

interface Polls {
  at: number;
  current: Groups;
  diff: ParticipantDiff;
}

export function SpaceView({ route }: { route: Extract<Route, { name: 'space' }> }) {
  const { id } = route;
  const visible = useDocumentVisible();
  const costAccepted = useLive((s) => s.costAccepted);
  const paused = useLive((s) => s.paused[id] === true);
  const [intervalSec, setIntervalSec] = useState<number | null>(null);
  const [running, setRunning] = useState(false);
  const polling = running && costAccepted && !paused && visible && intervalSec !== null;
  const q = useQuery(spaceQuery(id, polling && intervalSec !== null ? intervalSec * 1000 : false));
  const parsed = useMemo(() => (q.data ? SpaceData.safeParse(q.data.data) : null), [q.data]);
  const space = parsed?.success ? parsed.data.data.audio_space_by_rest_id : null;
  const now = useTicker(1000, running);
  const summary = useMemo(() => (space ? summarizeSpace(space, now) : null), [space, now]);

  // What the polls say drives whether to poll (adjusting state while rendering, as React recommends).
  const live = summary?.live ?? false;
  const interval = summary ? safeInterval(summary.pollIntervalSec) : null;
  if (live !== running) setRunning(live);
  if (interval !== intervalSec) setIntervalSec(interval);

  // Who joined and left since the previous poll: remembered per answer.
  const groups = useMemo(() => (space ? groupParticipants(space) : null), [space]);
  const [polls, setPolls] = useState<Polls | null>(null);
  if (groups && polls?.at !== q.dataUpdatedAt) {
    setPolls({ at: q.dataUpdatedAt, current: groups, diff: diffParticipants(polls?.current ?? null, groups) });
  }

  if (q.status === 'pending')
    return (
      <ViewFrame title="Audio space">
        <SkeletonList count={3} label="Loading the space…" />
      </ViewFrame>
    );
  if (q.status === 'error' && !q.data)
    return (
      <ViewFrame title="Audio space">
        <ErrorState error={q.error} what="the space" onRetry={() => void q.refetch()} />
      </ViewFrame>
    );
  if (!summary || !groups)
    return (
      <ViewFrame title="Audio space">
        <ErrorState error={new SkeinError('malformed', `The API’s answer for space ${id} could not be read.`)} />
      </ViewFrame>
    );
  return (
    <div className="view view--space">
      <SpaceHeader summary={summary} now={now} />
      <LiveControls
        spaceId={id}
        summary={summary}
        polling={polling}
        visible={visible}
        fetchedAt={q.data.meta.fetchedAt}
        now={now}
        refreshing={q.isFetching}
        onRefresh={() => void q.refetch()}
      />
      {q.isError ? (
        <ErrorState compact error={q.error} what="the latest update" onRetry={() => void q.refetch()} />
      ) : null}
      <div className="space__cache">
        {!live ? <CacheNote meta={q.data.meta} fetchedAfterMount={q.isFetchedAfterMount} /> : null}
        <ExportButton
          view={exportView('space', { space_id: id }, { items: 1, reachedEnd: true }, { title: summary.title })}
        />
      </div>
      <Participants
        groups={groups}
        diff={polls?.diff ?? null}
        ended={summary.state === 'Ended' ? summary.counts.participated : null}
      />
    </div>
  );
}

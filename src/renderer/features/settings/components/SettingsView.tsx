/**
 * Settings: connection (mode, base URL, pace), API key, where projects are managed, trusted time for kept media,
 * the web archive save service, price table and cache.
 */
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ErrorState';
import { SkeletonList } from '../../../components/states';
import { ViewFrame } from '../../../components/ViewFrame';
import { settingsQuery } from '../../../lib/settings';
import { ApiKeySection } from './ApiKeySection';
import { CacheSection } from './CacheSection';
import { ConnectionSection } from './ConnectionSection';
import { KeptMediaSection } from './KeptMediaSection';
import { PriceTableSection } from './PriceTableSection';
import { ProjectsSection } from './ProjectsSection';
import { SaveServiceSection } from './SaveServiceSection';
import { TimestampSection } from './TimestampSection';
import './settings.css';

export function SettingsView() {
  const settings = useQuery(settingsQuery());
  return (
    <ViewFrame title="Settings" className="view--settings">
      <div className="settings">
        {settings.status === 'pending' ? (
          <SkeletonList count={2} label="Loading settings…" />
        ) : settings.status === 'error' ? (
          <ErrorState error={settings.error} what="settings" onRetry={() => void settings.refetch()} />
        ) : (
          <>
            <ConnectionSection
              key={`c-${settings.data.baseUrl}-${settings.data.requestsPerSecond}`}
              settings={settings.data}
            />
            <ApiKeySection persistWithoutKeyring={settings.data.persistKeyWithoutKeyring} mode={settings.data.mode} />
            <ProjectsSection />
            <KeptMediaSection settings={settings.data} />
            <TimestampSection
              key={`t-${settings.data.timestampAuthority ?? ''}-${settings.data.timestampFallback ?? ''}`}
              settings={settings.data}
            />
            <SaveServiceSection
              key={`s-${settings.data.saveServiceUrl}-${settings.data.saveServicePaceSeconds}`}
              settings={settings.data}
            />
            <PriceTableSection prices={settings.data.prices} />
            <CacheSection />
          </>
        )}
      </div>
    </ViewFrame>
  );
}

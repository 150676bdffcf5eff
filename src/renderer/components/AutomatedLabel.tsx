/**
 * "Automated by @operator" for an account that says it is a bot (the live service's `isAutomated`,
 * `automatedBy` and its AutomatedLabel): researchers filter on it, so it is shown wherever the account is.
 */
import { formatRoute, routes } from '../lib/routes';
import { Handle } from './Identity';

interface Props {
  user: { isAutomated?: boolean | undefined; automatedBy?: string | null | undefined } | null | undefined;
}

export function AutomatedLabel({ user }: Props) {
  if (!user?.isAutomated) return null;
  const by = user.automatedBy;
  return (
    <span
      className="chip chip--automated"
      role="note"
      aria-label={by ? `Automated account, run by @${by}` : 'Automated account'}
      title="The service labels this account as automated"
    >
      <span aria-hidden="true">⚙ </span>
      {by ? (
        <>
          Automated by{' '}
          <a href={formatRoute(routes.userByHandle(by))} onClick={(e) => e.stopPropagation()}>
            <Handle handle={by} />
          </a>
        </>
      ) : (
        'Automated'
      )}
    </span>
  );
}

/**
 * What an announced-but-unavailable operation (HTTP 501) means, in plain
 * words: the API lists it, does not serve it yet, and does not charge for
 * asking. Skein asked once and will not ask again this session.
 */
import { OPERATIONS, type OperationId } from '../../shared/api/catalog';
import './states.css';

export function NotAvailableNotice({ operation, what }: { operation: OperationId; what: string }) {
  const op = OPERATIONS[operation];
  return (
    <div className="state not-available" role="status" data-operation={operation}>
      <p className="state__title">{what} are not available yet</p>
      <p className="state__message">
        The API announces “{op.title}” (<code>{op.path}</code>) but does not serve it yet: it answered HTTP 501. Such
        calls are never charged.
      </p>
      <p className="state__action muted">Skein asked once and will not ask again this session.</p>
    </div>
  );
}

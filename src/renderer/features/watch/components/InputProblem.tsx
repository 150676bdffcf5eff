import { isSkeinError } from '../../../../shared/errors';
import { ErrorState } from '../../../components/ErrorState';

/**
 * What is wrong with what the person typed, in plain words naming the field (no "bug in Skein": it is none);
 * an error main returns for the input (`validation`) is said the same way, any other as the error it is.
 */
export function InputProblem({ problems, error, what }: { problems?: string[]; error?: unknown; what?: string }) {
  if (error !== undefined && !(isSkeinError(error) && error.code === 'validation'))
    return <ErrorState compact error={error} {...(what ? { what } : {})} />;
  const said = error !== undefined && error instanceof Error ? [error.message] : (problems ?? []);
  return (
    <div className="watch-form__problem" role="alert">
      {said.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  );
}

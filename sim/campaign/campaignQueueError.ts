import { CodedError } from '../../spec/errors.js';

/** Why a campaign on a queue could not go on; the message says what to do. */
export type CampaignQueueErrorCode =
  /** The queue URL is not a redis:// or rediss:// URL. */
  | 'QUEUE_URL_INVALID'
  /** Redis did not answer within the connect timeout. */
  | 'QUEUE_UNREACHABLE'
  /** `--resume` named a campaign the queue does not know (or the out dir has none). */
  | 'CAMPAIGN_NOT_FOUND'
  /** Some seeds' jobs failed for good: the campaign cannot finish until they are retried (`--resume`). */
  | 'CAMPAIGN_JOBS_FAILED'
  /** A job's payload is not a campaign job (it fails at once, without retries). */
  | 'JOB_PAYLOAD_INVALID';

export class CampaignQueueError extends CodedError<CampaignQueueErrorCode, Readonly<Record<string, string | number>>> {
  constructor(
    code: CampaignQueueErrorCode,
    message: string,
    details: Readonly<Record<string, string | number>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, details, options);
    this.name = 'CampaignQueueError';
  }
}

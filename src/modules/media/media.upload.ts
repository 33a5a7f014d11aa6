import { ApiError, detailOf } from '../../lib/errors';
import { config, type Vars } from '../../config';
import { fieldProblems } from '../../lib/validation';
import { UploadMediaQuery, type UploadMediaInput } from './media.schemas';
import { EXTENSION, MEDIA_TYPES, type MediaType, sniff } from './media.sniff';
import { tooLarge } from './media.limits';

/**
 * Reading an upload: the image as the raw body (its type in Content-Type, settings in the query) or
 * as the `file` part of multipart/form-data (settings as fields beside it). The type is what the
 * first bytes say; a declared type that disagrees, or bytes of another kind, are 415.
 */

export const mediaMaxBytes = (env: Pick<Vars, 'MEDIA_MAX_BYTES'>) => config(env).MEDIA_MAX_BYTES;

export interface Upload {
  bytes: Uint8Array;
  type: MediaType;
  extension: string;
  width: number | null;
  height: number | null;
  input: UploadMediaInput;
}

const ACCEPTED = 'JPEG, PNG, WebP, AVIF or GIF';
const unsupported = (message: string, problem: string) => new ApiError('INVALID_REQUEST', message, { status: 415, details: [detailOf({ field: 'file', problem })] });

/** `image/jpg` is a common misspelling; parameters and case do not matter. */
function declaredType(header: string | null | undefined): string | null {
  const type = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!type || type === 'application/octet-stream') return null;
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

function settings(raw: Record<string, string | undefined>): UploadMediaInput {
  const parsed = UploadMediaQuery.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    throw ApiError.validation(fieldProblems(parsed.error));
  }
  return parsed.data;
}

/** A form's `file` part and its settings fields (an API upload's, or the admin panel's). */
export async function uploadFromForm(file: unknown, fields: Record<string, string | undefined>, maxBytes: number): Promise<Upload> {
  if (!file || typeof file === 'string') throw ApiError.validation([{ field: 'file', problem: 'is required: the image, as a file part named `file`', code: 'required' }]);
  const part = file as File;
  const input = settings(fields);
  if (part.size > maxBytes) throw tooLarge(maxBytes);
  return checked(new Uint8Array(await part.arrayBuffer()), declaredType(part.type), input);
}

export async function readUpload(request: Request, query: Record<string, string | undefined>, maxBytes: number): Promise<Upload> {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (/^multipart\/form-data/i.test(contentType)) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ApiError('INVALID_REQUEST', 'The multipart body could not be read', {
        details: [detailOf({ field: 'body', problem: 'is not well-formed multipart/form-data', code: 'invalid_format' })],
      });
    }
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : query[name];
    };
    return uploadFromForm(form.get('file'), { alt: field('alt'), position: field('position'), variantId: field('variantId') }, maxBytes);
  }
  const declared = declaredType(contentType);
  if (declared !== null && !(MEDIA_TYPES as readonly string[]).includes(declared)) {
    throw unsupported(`Send the image as the body with its Content-Type (${MEDIA_TYPES.join(', ')}) or as multipart/form-data`, declared);
  }
  const input = settings(query);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return checked(bytes, declared, input);
}

/** The bytes' own type, which must be an accepted image and the one declared (if any). */
function checked(bytes: Uint8Array, declared: string | null, input: UploadMediaInput): Upload {
  if (!bytes.length) throw ApiError.validation([{ field: 'file', problem: 'is empty', code: 'too_small' }]);
  const found = sniff(bytes);
  if (found.type === null) throw unsupported(`The file is not an image the store accepts (${ACCEPTED}): it is ${found.found}`, `is ${found.found}, not ${ACCEPTED}`);
  if (declared !== null && declared !== found.type) throw unsupported(`The file was sent as ${declared} but is ${found.type}`, `is ${found.type} but was sent as ${declared}`);
  return { bytes, type: found.type, extension: EXTENSION[found.type], width: found.width, height: found.height, input };
}

import { Type, type TSchema } from '@sinclair/typebox';

/** The one success notice every public API response carries. */
export const SUCCESS_MSG = '请求成功';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  timestamp: number;
}

export const ok = <T>(data: T): Envelope<T> => ({ code: 200, msg: SUCCESS_MSG, data, timestamp: Date.now() });
export const fail = (code: number, msg: string): Envelope<null> => ({ code, msg, data: null, timestamp: Date.now() });

/** Schema of a successful envelope around `data`. */
export const EnvelopeSchema = (data: TSchema) =>
  Type.Object({
    code: Type.Literal(200),
    msg: Type.String({ examples: [SUCCESS_MSG] }),
    data,
    timestamp: Type.Integer({ description: 'Unix time in milliseconds at response creation' }),
  });

export const ErrorEnvelopeSchema = Type.Object(
  {
    code: Type.Integer({ examples: [500] }),
    msg: Type.String({
      examples: ['参数 date 无效：应为 YYYY-MM-DD，范围 1900-01-01 至 2100-12-31，收到 "2024-13-01"'],
    }),
    data: Type.Null(),
    timestamp: Type.Integer(),
  },
  {
    $id: 'LookupError',
    description:
      'Failure envelope: 500 for a bad parameter or server failure, 404 for an unknown path, 429 when rate limited',
  },
);

export const AdminErrorSchema = Type.Object(
  { code: Type.String({ examples: ['FORBIDDEN'] }), message: Type.String({ examples: ['无权限'] }) },
  { $id: 'AdminError', description: 'Admin API error: a stable code and a message' },
);

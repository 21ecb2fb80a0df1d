/**
 * HTTP reason phrases as Scrapy prints them: Twisted's `http.RESPONSES`
 * table verbatim (hence 'Request Time-out', 'Gateway Time-out', and no 429,
 * 522 or 524), so retry log lines and `retry/reason_count/…` stats keys read
 * exactly as a Scrapy user's do.
 */
const REASONS: Readonly<Record<number, string>> = {
  100: 'Continue',
  101: 'Switching Protocols',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content.',
  206: 'Partial Content',
  207: 'Multi-Status',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Time-out',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Request Entity Too Large',
  414: 'Request-URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Requested Range not satisfiable',
  417: 'Expectation Failed',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Time-out',
  505: 'HTTP Version not supported',
  507: 'Insufficient Storage Space',
  510: 'Not Extended',
};

/** The reason phrase of `status`, or null when Twisted's table has none. */
export function reasonPhrase(status: number): string | null {
  return REASONS[status] ?? null;
}

/** `503 Service Unavailable`; `429 Unknown Status` for a code the table lacks (Scrapy's response_status_message). */
export function responseStatusMessage(status: number): string {
  return `${status} ${reasonPhrase(status) ?? 'Unknown Status'}`;
}

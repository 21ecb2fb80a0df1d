/**
 * The telnet protocol bytes (RFC 854) removed from what a client sends, so
 * that the console reads plain text whether the client is `telnet` or `nc`.
 * Option requests are refused (seine offers no telnet options except ECHO,
 * which it uses to hide the password); each option is refused once, so two
 * peers never loop on it.
 */
export const IAC = 255;
export const DONT = 254;
export const DO = 253;
export const WONT = 252;
export const WILL = 251;
export const SB = 250;
export const SE = 240;
/** The ECHO option: the server saying WILL ECHO makes a client stop echoing what is typed. */
export const ECHO = 1;

const CR = 13;
const NUL = 0;

type State = 'data' | 'iac' | 'option' | 'sb' | 'sb-iac';

export class IacFilter {
  #state: State = 'data';
  #verb = 0;
  #afterCr = false;
  readonly #refused = new Set<string>();

  /** `reply` receives the bytes to send back (option refusals). */
  constructor(private readonly reply: (bytes: Buffer) => void = () => {}) {}

  /** The text bytes of `chunk`; the filter keeps its state between chunks. */
  feed(chunk: Uint8Array): Buffer {
    const out: number[] = [];
    for (const byte of chunk) {
      switch (this.#state) {
        case 'data':
          if (byte === IAC) this.#state = 'iac';
          // NVT sends a bare carriage return as CR NUL; keep the CR only.
          else if (!(byte === NUL && this.#afterCr)) out.push(byte);
          this.#afterCr = byte === CR;
          break;
        case 'iac':
          this.#afterCr = false;
          if (byte === IAC) {
            out.push(IAC);
            this.#state = 'data';
          } else if (byte === WILL || byte === WONT || byte === DO || byte === DONT) {
            this.#verb = byte;
            this.#state = 'option';
          } else if (byte === SB) {
            this.#state = 'sb';
          } else {
            // NOP, IP, AYT, GA, …: commands without an argument.
            this.#state = 'data';
          }
          break;
        case 'option':
          this.#answer(this.#verb, byte);
          this.#state = 'data';
          break;
        case 'sb':
          if (byte === IAC) this.#state = 'sb-iac';
          break;
        case 'sb-iac':
          // IAC SE ends the subnegotiation; IAC IAC is an escaped 255 inside it.
          this.#state = byte === SE ? 'data' : 'sb';
          break;
      }
    }
    return Buffer.from(out);
  }

  #answer(verb: number, option: number): void {
    // DO/DONT ECHO answer our own WILL/WONT ECHO; WONT and DONT need no answer.
    if (option === ECHO || verb === WONT || verb === DONT) return;
    const key = `${verb}:${option}`;
    if (this.#refused.has(key)) return;
    this.#refused.add(key);
    this.reply(Buffer.from([IAC, verb === DO ? WONT : DONT, option]));
  }
}

import { Subject } from 'rxjs';
import type { Request } from '../http/request.js';

/**
 * Where a unit of work is. A request waiting in the scheduler has no ticket
 * yet: "scheduled" is the scheduler's queue (it counts what it holds, and a
 * JOBDIR queue keeps it on disk). The ticket opens when the scheduler hands
 * the request out (`taken`), and the request's life goes on from there:
 *
 *   taken ─▶ downloading ─▶ callback ─▶ done
 *     │           │             └──────▶ failed
 *     └───────────┴───────────────────▶ failed   (torn down, engine fault)
 *
 * `taken` and `downloading` are the *active* phases that CONCURRENT_REQUESTS
 * caps; `callback` covers the wait at the gate, the callback (or errback)
 * and the items it produced on their way through the item pipeline.
 */
export type TicketPhase = 'taken' | 'downloading' | 'callback' | 'done' | 'failed';

export type TicketOutcome = 'done' | 'failed';

/** One unit of work: a request from the scheduler, or the spider's start (`request` null). */
export class Ticket {
  phase: TicketPhase;
  /** Outputs still on their way (items in the pipeline); the ticket closes when none is left. */
  holds = 0;
  /** How the work itself ended, once it has; the ticket closes when its holds are released too. */
  outcome: TicketOutcome | null = null;
  /** Items buffered until the ticket closes (only when the engine commits items per ticket: JOBDIR); null otherwise. */
  items: unknown[] | null = null;
  /** Called once the ticket has closed and been acknowledged (the start records its progress here). */
  afterClose: (() => void) | null = null;

  constructor(
    readonly id: number,
    readonly request: Request | null,
    phase: TicketPhase,
  ) {
    this.phase = phase;
  }

  get isClosed(): boolean {
    return this.phase === 'done' || this.phase === 'failed';
  }

  toString(): string {
    return this.request === null ? 'the start' : this.request.toString();
  }
}

function isActive(phase: TicketPhase): boolean {
  return phase === 'taken' || phase === 'downloading';
}

/**
 * Every open ticket of one crawl, in one place. The crawl's concurrency
 * (`active`) and its end (`open === 0` with an empty scheduler) are read
 * from here: a ticket is opened once (`take`, `openStart`) and closed once
 * (when its work has an outcome and no output is held), and the counts
 * change only in this class, as a ticket moves.
 */
export class TicketBook {
  #open = 0;
  #active = 0;
  #nextId = 0;
  /** Emits when a ticket closes or leaves an active phase: capacity or the crawl's end may have changed. */
  readonly changed$ = new Subject<void>();
  /** Emits each ticket as it closes, before `onClose` (the engine hands out a ticket's buffered items here). */
  readonly closed$ = new Subject<Ticket>();

  /** Called once per ticket, as it closes (a JOBDIR acknowledges its request and commits its items here). */
  constructor(private readonly onClose: (ticket: Ticket) => void = () => {}) {}

  /** Open tickets: requests out of the scheduler, the start while it runs, items on their way. */
  get open(): number {
    return this.#open;
  }

  /** Tickets taken from the scheduler whose download has not ended. */
  get active(): number {
    return this.#active;
  }

  /** A request handed out by the scheduler. */
  take(request: Request): Ticket {
    this.#open++;
    this.#active++;
    return new Ticket(this.#nextId++, request, 'taken');
  }

  /** Work that is not a request's: the spider's start while it runs, or one item the start yielded. */
  openStart(): Ticket {
    this.#open++;
    return new Ticket(this.#nextId++, null, 'callback');
  }

  /** Moves an open ticket on: `downloading` when its download starts, `callback` when it ended. */
  move(ticket: Ticket, phase: 'downloading' | 'callback'): void {
    if (ticket.isClosed) return;
    const wasActive = isActive(ticket.phase);
    ticket.phase = phase;
    if (wasActive && !isActive(phase)) {
      this.#active--;
      this.changed$.next();
    }
  }

  /** An output of the ticket (an item) is on its way: the ticket stays open until it is released. */
  hold(ticket: Ticket): void {
    ticket.holds++;
  }

  release(ticket: Ticket): void {
    ticket.holds--;
    this.#closeIfDone(ticket);
  }

  /** The ticket's work ended (the first outcome counts); it closes now or when its last output is released. */
  settle(ticket: Ticket, outcome: TicketOutcome): void {
    if (ticket.outcome !== null) return;
    ticket.outcome = outcome;
    const wasActive = isActive(ticket.phase);
    if (wasActive) {
      this.#active--;
      ticket.phase = 'callback';
    }
    this.#closeIfDone(ticket);
    if (wasActive && !ticket.isClosed) this.changed$.next();
  }

  #closeIfDone(ticket: Ticket): void {
    if (ticket.outcome === null || ticket.holds > 0 || ticket.isClosed) return;
    ticket.phase = ticket.outcome;
    this.#open--;
    try {
      this.closed$.next(ticket);
      this.onClose(ticket);
      ticket.afterClose?.();
    } finally {
      this.changed$.next();
    }
  }
}

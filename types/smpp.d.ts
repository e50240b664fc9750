/**
 * Types for the parts of the untyped `smpp` package (0.5.x) that Herald's SMPP connector and the
 * test carrier use; one ambient declaration, referenced by both packages.
 * PDU fields are dynamic in that library (one property per SMPP parameter or TLV), so a PDU is
 * typed with the common header fields plus an index signature of `unknown`, to be narrowed at use.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** Parameters and TLVs by their SMPP names, e.g. { system_id, password } or { short_message }. */
  export type PduOptions = Record<string, unknown>;

  export interface Pdu {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    isResponse(): boolean;
    response(options?: PduOptions): Pdu;
    [field: string]: unknown;
  }

  type PduCallback = (pdu: Pdu) => void;
  type Command = (
    options?: PduOptions,
    responseCallback?: PduCallback,
    sendCallback?: PduCallback,
  ) => boolean;

  export interface Session extends EventEmitter {
    socket: Socket;
    send(pdu: Pdu, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver: Command;
    bind_transmitter: Command;
    bind_receiver: Command;
    submit_sm: Command;
    deliver_sm: Command;
    enquire_link: Command;
    unbind: Command;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export interface ConnectOptions {
    url?: string;
    host?: string;
    port?: number;
    auto_enquire_link_period?: number;
  }

  interface Smpp {
    createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
    connect(options: ConnectOptions | string, listener?: () => void): Session;
    PDU: new (command: string, options?: PduOptions) => Pdu;
    errors: Record<string, number>;
  }

  const smpp: Smpp;
  export default smpp;
}

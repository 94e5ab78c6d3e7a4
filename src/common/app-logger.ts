import { ConsoleLogger } from '@nestjs/common';

/** Nest's start-up chatter (one line per module and route) buries what operators need to see. */
const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

export class AppLogger extends ConsoleLogger {
  override log(message: unknown, context?: string): void {
    if (context && QUIET_CONTEXTS.has(context)) return;
    super.log(message, context);
  }
}

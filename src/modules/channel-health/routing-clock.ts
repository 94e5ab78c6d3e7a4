import { Injectable } from '@nestjs/common';

/** The time the breakers' cool-downs and the affinities' expiries are measured in; a provider of its own so tests can move it. */
@Injectable()
export class RoutingClock {
  nowMs(): number {
    return Date.now();
  }
}

import { Injectable } from '@nestjs/common';

/** The time TOTP codes are checked against; a provider of its own so tests can hold the clock. */
@Injectable()
export class TotpClock {
  nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }
}

import { Controller, Get, Param, ParseIntPipe } from '@nestjs/common';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { ApiResult, ApiResultWithExtras } from '../../common/http/envelope';
import { ChannelBalanceService } from './channel-balance.service';
import type { BalanceResult } from './monitoring.wire';

/** Balance updates of upstream accounts. */
@Controller('api/channel/update_balance')
@AdminOnly()
export class ChannelBalanceController {
  constructor(private readonly balances: ChannelBalanceService) {}

  /** Answers {success, message, balance, data}: new-api's console reads `balance` beside the envelope's fields. */
  @Get(':id')
  async updateBalance(@Param('id', ParseIntPipe) id: number): Promise<ApiResultWithExtras<BalanceResult>> {
    const result = await this.balances.updateBalance(id);
    return new ApiResultWithExtras(result, { balance: result.balance });
  }

  @Get()
  async updateAll(): Promise<ApiResult<{ updated: number }>> {
    return new ApiResult({ updated: await this.balances.updateAll() }, 'monitoring.balances_updated');
  }
}

import { DEFAULT_MODEL_PRICE } from '../../pricing/default-ratios';
import { MJ_ACTIONS, modelForAction } from './midjourney-actions';

describe('Midjourney action prices', () => {
  it('has a default price for the model of every action, so no submit is refused as unpriced', () => {
    const unpriced = MJ_ACTIONS.map(modelForAction).filter((model) => !(model in DEFAULT_MODEL_PRICE));
    expect(unpriced).toEqual([]);
  });

  it('prices the actions as new-api does: inpaint and custom zoom are free, their modal submit is billed', () => {
    const prices = Object.fromEntries(MJ_ACTIONS.map((action) => [modelForAction(action), DEFAULT_MODEL_PRICE[modelForAction(action)]]));
    expect(prices).toEqual({
      mj_imagine: 0.1,
      mj_upscale: 0.05,
      mj_variation: 0.1,
      mj_high_variation: 0.1,
      mj_low_variation: 0.1,
      mj_pan: 0.1,
      mj_describe: 0.05,
      mj_blend: 0.1,
      mj_upload: 0.05,
      mj_shorten: 0.1,
      mj_reroll: 0.1,
      mj_inpaint: 0,
      mj_zoom: 0.1,
      mj_custom_zoom: 0,
      mj_modal: 0.1,
      swap_face: 0.05,
    });
  });
});

import { InvalidArgumentError } from '@saccade/spec';
import { checkKnownOptions, ProceduralSource, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';
import { drawGuiScreen, guiScreenSvg, instructionFor, type ElementRole } from './gui-screen';

const ROLES: readonly ElementRole[] = ['button', 'icon-button', 'text-field', 'checkbox', 'list-item'];

/** Options of the GUI-grounding source: which element roles instructions may target. */
export interface GuiGroundingOptions extends ProceduralSourceOptions {
  /** Element roles the instruction may target (default all). */
  roles?: ElementRole[];
}

interface GuiGroundingSettings {
  roles: readonly ElementRole[];
}

/** GUI-grounding tasks: a rendered screen and an instruction naming the element to click; the answer is a point. */
export const guiGroundingGenerator: GeneratorDefinition<GuiGroundingSettings> = {
  name: 'gui-grounding',
  dataset: 'Procedural-GuiGrounding',
  taskFamily: 'grounding',
  checker: 'ScreenSpot',
  options: ['roles'],
  settings(options) {
    checkKnownOptions(options, this.options, 'gui-grounding');
    const { roles = ROLES } = options as GuiGroundingOptions;
    if (!Array.isArray(roles) || roles.length === 0 || !roles.every((role) => ROLES.includes(role))) {
      throw new InvalidArgumentError({ argument: 'roles', expected: `a non-empty array of ${ROLES.join(' | ')}`, value: roles });
    }
    return { roles };
  },
  generate(rng, settings, difficulty) {
    const screen = drawGuiScreen(rng.fork('screen'), difficulty);
    const role = rng.pick(settings.roles);
    const target = rng.pick(screen.elements.filter((element) => element.role === role));
    return {
      svg: guiScreenSvg(screen),
      width: screen.width,
      height: screen.height,
      question: `${instructionFor(target)} Give the point to click as (x, y) in pixels.`,
      answer: [...target.box],
      answerType: 'point',
      metadata: { target: target.id, targetBox: [...target.box], role: target.role, screen },
    };
  },
};

/** Synthetic app screens (toolbar, form, list); an instruction names an element, the answer is a click inside its box. */
export function createGuiGroundingSource(options: GuiGroundingOptions = {}): ProceduralSource<GuiGroundingSettings> {
  return new ProceduralSource(guiGroundingGenerator, options as GuiGroundingOptions & Record<string, unknown>);
}

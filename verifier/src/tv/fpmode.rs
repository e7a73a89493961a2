//! The function's floating-point MODE as llc prints it in `machineFunctionInfo: mode:` (LLVM
//! `SIModeRegisterDefaults`, `yaml::SIMode`): what the modelled float ops read of it. An op
//! whose result depends on a field the MIR does not give is not lowered.

use crate::rules::Loc;

/// The MODE fields the float lowering reads; `None` where the MIR does not say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FpMode {
    /// `ieee:` (MODE.IEEE; `v_max_f32`'s NaN handling).
    pub ieee: Option<bool>,
    /// `dx10-clamp:` (MODE.DX10_CLAMP; `clamp` of a NaN gives 0 when set).
    pub dx10_clamp: Option<bool>,
    /// `fp32-input-denormals:`, `fp32-output-denormals:`.
    pub fp32_denormals: (Option<bool>, Option<bool>),
    /// `fp64-fp16-input-denormals:`, `fp64-fp16-output-denormals:`.
    pub fp16_denormals: (Option<bool>, Option<bool>),
    /// The function's `"target-features"` name `+cumode` (not a MODE field, but like them a
    /// setting of the function the rule settings take): gfx101x in CU mode has no misaligned
    /// LDS bug (LLVM `hasLDSMisalignedBug() { return LDSMisalignedBug && !EnableCuMode; }`).
    pub cumode: bool,
}

impl FpMode {
    /// One `key: value` line of the `mode:` block; other keys are ignored.
    pub fn set(&mut self, key: &str, value: &str) {
        let v = match value.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        match key.trim() {
            "ieee" => self.ieee = v,
            "dx10-clamp" => self.dx10_clamp = v,
            "fp32-input-denormals" => self.fp32_denormals.0 = v,
            "fp32-output-denormals" => self.fp32_denormals.1 = v,
            "fp64-fp16-input-denormals" => self.fp16_denormals.0 = v,
            "fp64-fp16-output-denormals" => self.fp16_denormals.1 = v,
            _ => {}
        }
    }

    /// The rule `Settings:` the MODE gives: `ieee_mode` when the MIR states it, and
    /// `fp32_denorm` when it states both f32 denormal fields alike (PRESERVE when they are
    /// kept, FLUSH when not); without them the target's default stays.
    pub fn rule_settings(&self) -> Vec<(String, String, Loc)> {
        let mut out = Vec::new();
        let mut set = |n: &str, v: &str| out.push((n.to_string(), v.to_string(), Loc::default()));
        if let Some(on) = self.ieee {
            set("ieee_mode", if on { "ON" } else { "OFF" });
        }
        if let (Some(i), Some(o)) = self.fp32_denormals {
            if i == o {
                set("fp32_denorm", if i { "PRESERVE" } else { "FLUSH" });
            }
        }
        if self.cumode {
            // docs/soundness.md, `lds_misaligned` (breaker 20's 08: tv kept UNDEFINED).
            set("lds_misaligned", "DEFINED");
        }
        out
    }

    /// Why `mnemonic` (with `clamp` if `clamp`) cannot be lowered under this MODE, if it
    /// cannot: `v_max_f32` reads MODE.IEEE; `clamp` is modelled with DX10_CLAMP set only
    /// (`gcnsmt_semantics::modifiers`); `v_pk_add_f16` is modelled with f16 denormals kept.
    pub fn refuses(&self, mnemonic: &str, clamp: bool) -> Option<String> {
        let f32_op = ["v_add_f32", "v_mul_f32", "v_fma_f32", "v_max_f32"].contains(&mnemonic);
        if let (true, (Some(i), Some(o))) = (f32_op, self.fp32_denormals) {
            if i != o {
                // fp32_denorm models inputs and results alike.
                return Some(format!(
                    "{mnemonic} with f32 denormals kept on one side of the op only is not modelled"
                ));
            }
        }
        // gfx12's v_max_num_f32 / v_min_num_f32: the guide's pseudocode has no denormal flush
        // and its clamp is not modelled (alu.pcode).
        if ["v_max_num_f32", "v_min_num_f32"].contains(&mnemonic)
            && (clamp || self.fp32_denormals != (Some(true), Some(true)))
        {
            return Some(format!(
                "{mnemonic} is modelled with f32 denormals kept and no clamp only"
            ));
        }
        if mnemonic == "v_max_f32" && self.ieee.is_none() {
            return Some("v_max_f32 reads MODE.IEEE, which the MIR's `mode:` does not give".into());
        }
        if clamp && self.dx10_clamp != Some(true) {
            return Some(format!(
                "{mnemonic} clamp is modelled with `dx10-clamp: true` only"
            ));
        }
        let kept = (Some(true), Some(true));
        if super::fcmp::is_fcmp(mnemonic) && self.fp32_denormals != kept {
            return Some(format!(
                "{mnemonic} is modelled with f32 denormals kept (`fp32-*-denormals: true`) only"
            ));
        }
        if mnemonic == "v_dot2_f32_f16"
            && (self.fp16_denormals != kept || self.fp32_denormals != kept)
        {
            return Some(
                "v_dot2_f32_f16 is modelled with f16 and f32 denormals kept (`mode:`) only".into(),
            );
        }
        if ["v_pk_add_f32", "v_pk_mul_f32", "v_pk_fma_f32"].contains(&mnemonic)
            && self.fp32_denormals != kept
        {
            return Some(format!(
                "{mnemonic} is modelled with f32 denormals kept (`fp32-*-denormals: true`) only"
            ));
        }
        // Which MODE field governs bf16 denormals is not documented to us: both kept.
        if mnemonic == "v_pk_add_bf16"
            && (self.fp16_denormals != kept || self.fp32_denormals != kept)
        {
            return Some(
                "v_pk_add_bf16 is modelled with f32 and f16/f64 denormals kept (`mode:`) only"
                    .into(),
            );
        }
        if mnemonic == "v_pk_add_f16" && self.fp16_denormals != kept {
            return Some(
                "v_pk_add_f16 is modelled with f16 denormals kept (`fp64-fp16-*-denormals: true`) only"
                    .into(),
            );
        }
        None
    }
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A Cargo workspace of two packages: a library `geo-core` (modules through `mod` files, `mod.rs`,
 * `pub use` re-exports, an impl of a trait, a `#[cfg(test)]` module, an integration test under
 * tests/) and a binary `app` using it by crate name. lib.rs → shapes/mod.rs → circle.rs → lib.rs is
 * an import cycle (a re-export down, `use crate::GeoError` up). No external crates: `cargo check`
 * runs offline.
 */
export const RUST_REPO: Record<string, string> = {
  'Cargo.toml': '[workspace]\nmembers = ["core", "app"]\nresolver = "2"\n',
  'core/Cargo.toml': '[package]\nname = "geo-core"\nversion = "0.1.0"\nedition = "2021"\n',
  'core/src/lib.rs': `//! Geometry core.
pub mod shapes;
pub mod util;

pub use shapes::Circle;

/// Errors of the geometry core.
#[derive(Debug)]
pub enum GeoError {
    Negative,
}
`,
  'core/src/shapes/mod.rs': `pub mod circle;

pub use circle::Circle;

/// Something with an area.
pub trait Area {
    fn area(&self) -> f64;
}
`,
  'core/src/shapes/circle.rs': `use super::Area;
use crate::util::square;
use crate::GeoError;

/// A circle by its radius.
pub struct Circle {
    pub radius: f64,
}

impl Circle {
    /// Builds a circle, refusing a negative radius.
    pub fn new(radius: f64) -> Result<Circle, GeoError> {
        if radius < 0.0 {
            return Err(GeoError::Negative);
        }
        Ok(Circle { radius })
    }

    /// The circle scaled by a factor.
    pub fn scaled(&self, factor: f64) -> Circle {
        Circle { radius: self.radius * factor }
    }
}

impl Area for Circle {
    fn area(&self) -> f64 {
        // square of the radius, times pi
        3.14159 * square(self.radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_circle_area() {
        assert!(Circle::new(1.0).unwrap().area() > 3.0);
    }
}
`,
  'core/src/util.rs': `/// Multiplies a value by itself.
pub fn square(x: f64) -> f64 {
    x * x
}

/// Compound interest: grows a principal by a rate over a number of periods.
pub fn compound_interest(principal: f64, rate: f64, periods: u32) -> f64 {
    principal * (1.0 + rate).powi(periods as i32)
}
`,
  'core/tests/circle_area.rs': `use geo_core::shapes::circle::Circle;
use geo_core::shapes::Area;

#[test]
fn bigger_circles_have_bigger_areas() {
    assert!(Circle::new(2.0).unwrap().area() > Circle::new(1.0).unwrap().area());
}
`,
  'app/Cargo.toml':
    '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ngeo-core = { path = "../core" }\n',
  'app/src/main.rs': `use geo_core::shapes::Area;
use geo_core::util;

mod report;

fn main() {
    let circle = geo_core::Circle::new(2.0).expect("a radius");
    println!("{}", report::describe(circle.area()));
    println!("{}", util::square(3.0));
    println!("{}", util::compound_interest(100.0, 0.05, 10));
}
`,
  'app/src/report.rs': `/// Formats an area for display.
pub fn describe(area: f64) -> String {
    format!("area {:.2}", area)
}
`,
};

/**
 * The cargo to check a repository with. Under test isolation HOME is a temp dir, so a rustup
 * install in the real home is reached through RUSTUP_HOME (its toolchains, read only) with a temp
 * CARGO_HOME; without one, Debian's `cargo` package is installed when running as root. Throws a
 * clear error when neither works: the compile check is never skipped.
 */
export function cargoEnv(): { cargo: string; env: NodeJS.ProcessEnv } {
  const realHome = process.env['AGENTGOV_TEST_REAL_HOME'] ?? '';
  const candidates: Array<{ cargo: string; env: NodeJS.ProcessEnv }> = [{ cargo: 'cargo', env: { ...process.env } }];
  if (realHome && existsSync(join(realHome, '.rustup')))
    candidates.push({
      cargo: existsSync(join(realHome, '.cargo/bin/cargo')) ? join(realHome, '.cargo/bin/cargo') : 'cargo',
      env: {
        ...process.env,
        RUSTUP_HOME: process.env['RUSTUP_HOME'] ?? join(realHome, '.rustup'),
        CARGO_HOME: mkdtempSync(join(process.env['AGENTGOV_TEST_TMP'] ?? '/tmp', 'cargo-home-')),
      },
    });
  const works = (c: { cargo: string; env: NodeJS.ProcessEnv }) => {
    try {
      execFileSync(c.cargo, ['--version'], { env: c.env, stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  };
  const found = candidates.find(works);
  if (found) return found;
  if (process.getuid?.() === 0) {
    try {
      execFileSync('apt-get', ['install', '-y', '-q', 'cargo'], { stdio: 'pipe', timeout: 600_000 });
    } catch (error) {
      throw new Error(`cargo is missing and \`apt-get install -y cargo\` failed: ${(error as Error).message}`);
    }
    if (works(candidates[0]!)) return candidates[0]!;
  }
  throw new Error(
    'cargo is needed to check the renamed Rust repository compiles: install it (apt-get install cargo, or rustup)',
  );
}

/** `cargo check --workspace --offline` in `root`; returns the output, throws with it when the check fails. */
export function cargoCheck(root: string): string {
  const { cargo, env } = cargoEnv();
  try {
    return execFileSync(cargo, ['check', '--workspace', '--offline', '--quiet', '--tests'], {
      cwd: root,
      env: { ...env, CARGO_TARGET_DIR: join(root, 'target') },
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (error) {
    const failure = error as { stderr?: string; stdout?: string };
    throw new Error(`cargo check failed:\n${failure.stderr ?? ''}${failure.stdout ?? ''}`);
  }
}

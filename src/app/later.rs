//! A value worked out from its inputs on its first read, once.

/// A value worked out from its inputs on its first read, once: what the
/// app derives for its figures and charts, which read it only when they are
/// drawn.
pub struct Later<I, T> {
    inputs: I,
    make: fn(&I) -> T,
    value: std::cell::OnceCell<T>,
}

impl<I, T> Later<I, T> {
    pub fn new(inputs: I, make: fn(&I) -> T) -> Self {
        Self {
            inputs,
            make,
            value: std::cell::OnceCell::new(),
        }
    }

    pub fn get(&self) -> &T {
        self.value.get_or_init(|| (self.make)(&self.inputs))
    }

    /// What it is worked out from.
    pub fn inputs(&self) -> &I {
        &self.inputs
    }

    /// Whether it has been read (and so worked out) yet.
    pub fn made(&self) -> bool {
        self.value.get().is_some()
    }
}

impl<I, T> std::ops::Deref for Later<I, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.get()
    }
}

impl<I, T: std::fmt::Debug> std::fmt::Debug for Later<I, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value.get() {
            Some(v) => v.fmt(f),
            None => f.write_str("(not yet worked out)"),
        }
    }
}

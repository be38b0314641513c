#[fg=#EE6A6A]■#[default] #[fg=#EE6A6A]Exited#[default]

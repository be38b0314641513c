#[fg=#EE6A6A]■#[default] #[fg=#EE6A6A]exited (3)#[default]
